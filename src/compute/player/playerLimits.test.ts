import { describe, expect, it } from "vitest";
import { playerSizeProblem } from "./playerLimits";

describe("what the player will not replay", () => {
  it("a batch with no tokens: there is no scan to step through (no caption names t = −1)", () => {
    expect(playerSizeProblem({ rows: 2, tokens: 0, chunkSize: 128 }, "This batch")).toBe(
      "This batch has no tokens (2 rows, none longer than 0): there is no scan to replay",
    );
    expect(playerSizeProblem({ rows: 0, tokens: 0, chunkSize: 4 }, "case empty")).toMatch(/^case empty has no tokens/);
    expect(playerSizeProblem({ rows: 1, tokens: 1, chunkSize: 4 }, "This batch")).toBeNull();
  });
});
