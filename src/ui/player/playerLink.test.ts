import { describe, expect, it } from "vitest";
import { linkedSource, playerSearch } from "./playerLink";
import { PLAYER_EXAMPLES } from "./source";

describe("the player's link", () => {
  it("carries a playground state there and back", () => {
    const state = PLAYER_EXAMPLES[2].state;
    const search = playerSearch(state);
    expect(new URLSearchParams(search).get("view")).toBe("player");
    const { source, error } = linkedSource(search);
    expect(error).toBeUndefined();
    expect(source).toEqual({ kind: "state", state, label: "From the playground" });
  });

  it("opens the default example without an s, and names the problem of a damaged one", () => {
    expect(linkedSource("?view=player")).toEqual({});
    const { source, error } = linkedSource("?view=player&s=not-a-state");
    expect(source).toBeUndefined();
    expect(error?.message).toMatch(/^Player link/);
  });
});
