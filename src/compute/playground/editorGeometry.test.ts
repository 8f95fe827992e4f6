import { describe, expect, it } from "vitest";
import { drawSegment, laneRange, niceCeil, paintMask, poolBars, tokenAt, valueAt, yOf } from "./editorGeometry";

describe("editor geometry", () => {
  it("gives a symmetric 1-2-5 range that holds every value", () => {
    expect(niceCeil(3)).toBe(5);
    expect(niceCeil(0.3)).toBe(0.5);
    expect(niceCeil(10)).toBe(10);
    expect(laneRange([0.2, -0.4])).toEqual({ min: -0.5, max: 0.5 });
    expect(laneRange([0, 0])).toEqual({ min: -1, max: 1 });
    // A NaN or an infinity typed into a lane leaves the range to the finite values.
    expect(laneRange([0.02, Number.NaN, -0.03])).toEqual({ min: -0.05, max: 0.05 });
    expect(laneRange([Number.NaN, 300, Number.NEGATIVE_INFINITY])).toEqual({ min: -500, max: 500 });
    expect(laneRange([0, 1e6 + 1])).toEqual({ min: -2e6, max: 2e6 });
  });

  it("maps pointer positions to tokens and values and back", () => {
    expect(tokenAt(0, 100, 10)).toBe(0);
    expect(tokenAt(99.9, 100, 10)).toBe(9);
    expect(tokenAt(150, 100, 10)).toBe(9);
    expect(tokenAt(-5, 100, 10)).toBe(0);
    const range = { min: -1, max: 1 };
    expect(valueAt(0, 80, range)).toBe(1);
    expect(valueAt(40, 80, range)).toBe(0);
    expect(valueAt(60, 80, range)).toBe(-0.5);
    expect(yOf(-0.5, 80, range)).toBe(60);
  });

  it("pools long rows by min and max so that spikes survive", () => {
    const values = new Array(1000).fill(0);
    values[637] = 5;
    values[12] = -3;
    const pooled = poolBars(values, 1000, 1000, 10);
    expect(pooled[2 * 6 + 1]).toBe(5);
    expect(pooled[2 * 0]).toBe(-3);
    expect(pooled[2 * 5 + 1]).toBe(0);
    // A row shorter than the padded width leaves its padding bins empty.
    const short = poolBars(values, 500, 1000, 10);
    expect(Number.isNaN(short[2 * 7])).toBe(true);
  });

  it("fills every token a fast stroke passes over, in either direction", () => {
    const lane = [0, 0, 0, 0, 0];
    expect(drawSegment(lane, { token: 4, value: 4 }, { token: 0, value: 0 })).toBe(true);
    expect(lane).toEqual([0, 1, 2, 3, 4]);
    expect(drawSegment(lane, { token: 2, value: 2 }, { token: 2, value: 2 })).toBe(false);
    const mask: (0 | 1)[] = [1, 1, 1, 1];
    expect(paintMask(mask, 2, 1, 0)).toBe(true);
    expect(mask).toEqual([1, 0, 0, 1]);
  });
});
