import { describe, expect, it } from "vitest";
import { editedAddress, linkedSource, playerAddress } from "./playerLink";
import { PLAYER_EXAMPLES } from "./source";

describe("the player's link", () => {
  it("carries a playground state there and back", () => {
    const state = PLAYER_EXAMPLES[2].state;
    const address = playerAddress(state);
    const [search, hash] = [address.slice(0, address.indexOf("#")), address.slice(address.indexOf("#"))];
    expect(search).toBe("?view=player");
    expect(hash).toMatch(/^#s=/);
    const { source, error } = linkedSource(search, hash);
    expect(error).toBeUndefined();
    expect(source).toEqual({ kind: "state", state, label: "From the playground" });
  });

  it("opens the default example without an s, and names the problem of a damaged one", () => {
    expect(linkedSource("?view=player")).toEqual({});
    const { source, error } = linkedSource("?view=player&s=not-a-state");
    expect(source).toBeUndefined();
    expect(error?.message).toMatch(/^Player link/);
    // Links written before the state moved to the fragment still open.
    const old = `?view=player&s=${playerAddress(PLAYER_EXAMPLES[2].state).split("#s=")[1]}`;
    expect(linkedSource(old).source).toBeDefined();
  });
});

describe("the address after an edit", () => {
  it("keeps the other settings, drops the tour and carries the edited state, which opens again", () => {
    const state = { ...PLAYER_EXAMPLES[3].state, gamma: 0.5, chunkSize: 3 };
    const address = editedAddress("?view=player&backend=cpu&tour=1", state);
    const [search, hash] = [address.slice(0, address.indexOf("#")), address.slice(address.indexOf("#"))];
    expect(search).toBe("?view=player&backend=cpu");
    expect(linkedSource(search, hash).source).toEqual({ kind: "state", state, label: "From the playground" });
  });
});

describe("a row in focus in the address", () => {
  it("names the one row it carries as row 3 of 16, and ignores focus beside a batch of several rows", () => {
    const one = PLAYER_EXAMPLES[3].state;
    const address = playerAddress(one, undefined, { row: 3, rows: 16 });
    const [search, hash] = [address.slice(0, address.indexOf("#")), address.slice(address.indexOf("#"))];
    expect(search).toBe("?view=player&focus=3-of-16");
    expect(linkedSource(search, hash).source).toEqual({
      kind: "state",
      state: one,
      label: "From the playground · row 3 of 16",
      focus: { row: 3, rows: 16 },
    });
    const two = playerAddress(PLAYER_EXAMPLES[0].state, undefined, { row: 1, rows: 16 });
    const [s2, h2] = [two.slice(0, two.indexOf("#")), two.slice(two.indexOf("#"))];
    expect(linkedSource(s2, h2).source).toEqual({
      kind: "state",
      state: PLAYER_EXAMPLES[0].state,
      label: "From the playground",
    });
  });
});
