import { describe, expect, it } from "vitest";
import { linePath } from "./PlotLine";

const x = (t: unknown) => 10 + 2 * (t as number);
const y = (v: unknown) => 100 - (v as number);

describe("linePath", () => {
  it("draws the points in order and lifts the pen at each gap, as a line without connectNulls", () => {
    const points = [
      { t: 0, v: 1 },
      { t: 1, v: 2.254 },
      { t: 2, v: null },
      { t: 3, v: 4 },
      { t: 4, v: 5 },
    ];
    expect(linePath(points, x, y)).toBe("M10,99L12,97.75M16,96L18,95");
  });

  it("draws nothing for no points or only gaps, and skips a point the scale cannot place", () => {
    expect(linePath([], x, y)).toBe("");
    expect(linePath([{ t: 0, v: null }], x, y)).toBe("");
    const unplaced = (v: unknown) => ((v as number) > 1e300 ? undefined : y(v));
    expect(
      linePath(
        [
          { t: 0, v: 1 },
          { t: 1, v: 1e301 },
          { t: 2, v: 3 },
        ],
        x,
        unplaced,
      ),
    ).toBe("M10,99h0M14,97h0");
  });

  it("draws a point alone, a one-token row or one between gaps, as a zero-length segment (a dot)", () => {
    expect(linePath([{ t: 0, v: 1 }], x, y)).toBe("M10,99h0");
    const islands = [
      { t: 0, v: 1 },
      { t: 1, v: null },
      { t: 2, v: 3 },
      { t: 3, v: 4 },
    ];
    expect(linePath(islands, x, y)).toBe("M10,99h0M14,97L16,96");
  });
});
