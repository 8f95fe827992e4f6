import { describe, expect, it } from "vitest";
import type { ScanOutputs } from "../../../core";
import { outputTables, paddedTables } from "./outputTables";

describe("paddedTables", () => {
  it("pads REINFORCE++'s ragged rows a slice per step into the tables outputTables gives", async () => {
    const cols = 2 ** 15;
    const row = (b: number) => Float32Array.from({ length: cols - b }, (_, t) => b + t / cols);
    const outputs: ScanOutputs<Float32Array> = {
      kind: "reinforce_pp",
      returns: [0, 1, 2, 3].map(row),
      tokenLevelRewards: [3, 2, 1, 0].map(row),
    };
    let steps = 0;
    const sliced = await paddedTables(outputs, 4, cols, async () => {
      steps++;
    });
    expect(steps).toBeGreaterThan(0);
    const whole = outputTables(outputs, 4, cols);
    for (const name of ["returns", "token_level_rewards"] as const) {
      const a = sliced[name];
      const b = whole[name];
      expect(a?.length).toBe(4 * cols);
      expect(a?.every((v, i) => v === b?.[i])).toBe(true);
    }
  });
});
