import { describe, expect, it } from "vitest";
import { serialDiscountedReturns } from "../serialScan";
import { runConvention } from "./runConvention";
import { cutSegments, nextUnmaskedIndex, segmentsByWidth, segmentWidth, unmaskedPositions } from "./segments";

describe("the layouts of the batched convention scans", () => {
  it("cuts a sequence at token 0 and at every mask-0 token", () => {
    expect(cutSegments([[1, 1, 0, 1, 0, 0, 1], [0]])).toEqual([
      { row: 0, start: 0, length: 2 },
      { row: 0, start: 2, length: 2 },
      { row: 0, start: 4, length: 1 },
      { row: 0, start: 5, length: 2 },
      { row: 1, start: 0, length: 1 },
    ]);
  });

  it("verl's cut returns are the plain returns of each segment scanned apart (float64)", () => {
    const mask = [0, 1, 1, 0, 0, 1, 1, 1, 0, 1];
    const kl = Float64Array.from(mask, (_, t) => Math.sin(t + 1));
    const batch = { rewards: [3], kl: [kl], lossMasks: [mask] };
    const params = { gamma: 0.9, klCoef: 0.2, normalize: false };
    const { tokenLevelRewards, returns } = runConvention("verl", "reinforce_pp", batch, params);
    for (const { start, length } of cutSegments([mask])) {
      const piece = tokenLevelRewards[0].slice(start, start + length);
      const alone = serialDiscountedReturns({ rows: 1, cols: length, data: piece }, 0.9).data;
      alone.forEach((g, j) => {
        expect(returns[0][start + j]).toBeCloseTo(g, 14);
      });
    }
  });

  it("groups segments by the next power of two, widths ascending, never more than twice the tokens", () => {
    expect([1, 2, 3, 4, 5, 128, 129].map(segmentWidth)).toEqual([1, 2, 4, 4, 8, 128, 256]);
    const segments = cutSegments([[1, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1]]);
    const groups = segmentsByWidth(segments);
    expect(groups.map((g) => [g.width, g.segments.length])).toEqual([
      [2, 1],
      [4, 1],
      [8, 1],
    ]);
    const padded = groups.reduce((sum, g) => sum + g.width * g.segments.length, 0);
    expect(padded).toBeLessThan(2 * 11);
  });

  it("compacts mask-1 tokens in order; a mask-0 token points at the next mask-1 token, or −1", () => {
    const mask = [0, 1, 0, 0, 1, 1, 0];
    expect(unmaskedPositions(mask)).toEqual([1, 4, 5]);
    expect(Array.from(nextUnmaskedIndex(mask))).toEqual([0, 0, 1, 1, 1, 2, -1]);
  });
});
