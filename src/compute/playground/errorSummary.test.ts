import { describe, expect, it } from "vitest";
import { ulpDistance } from "./cellErrors";
import { ErrorAccumulator, summarizeErrors } from "./errorSummary";

const reference = { returns: new Float64Array([1, 2, 3, 0.1, 5, 9]) };
const chunked = { returns: new Float32Array([1, 2.5, 3, 0.1, 5, 123]) };
const input = {
  rows: 2,
  cols: 3,
  lengths: [3, 2],
  reference,
  chunked,
  bound: { returns: new Float64Array([0.1, 0.1, 0.1, 0.1, 0.1, 0]) },
  precision: "float32" as const,
};

describe("error summary", () => {
  it("takes the largest errors over valid tokens only, counting cells over their bound", () => {
    const summary = summarizeErrors(input);
    // Token 2 of row 1 is padding: its 114 never counts.
    expect(summary.maxAbs).toBe(0.5);
    expect(summary.worst).toEqual({ output: "returns", row: 0, token: 1 });
    expect(summary.maxRel).toBe(0.25);
    expect(summary.maxUlps).toBe(ulpDistance(2, 2.5, "float32"));
    // 0.1 in float32 is the float64 0.1 rounded: 0 ulps apart, though not equal.
    expect(summary.cells).toBe(5);
    expect(summary.overBound).toBe(1);
    expect(summarizeErrors({ ...input, bound: undefined }).overBound).toBeNull();
  });

  it("never counts a cell as within a bound of +Inf or NaN: it is not judged, and an infinite error is over", () => {
    const summary = summarizeErrors({
      ...input,
      chunked: { returns: new Float32Array([1, 2.5, Number.POSITIVE_INFINITY, 0.1, 5, 0]) },
      bound: {
        returns: new Float64Array([0.1, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, Number.NaN, 0.1, 0]),
      },
    });
    // Token 1 (error 0.5) and token 3 (error 0) have bounds that check nothing; token 2 lost a finite truth.
    expect(summary.unbounded).toBe(2);
    expect(summary.overBound).toBe(1);
    expect([summary.cells, summary.lost]).toEqual([5, 0]);
    const allUnbounded = summarizeErrors({ ...input, bound: { returns: new Float64Array(6).fill(Number.NaN) } });
    expect([allUnbounded.overBound, allUnbounded.cells, allUnbounded.unbounded]).toEqual([0, 5, 5]);
  });

  it("gives the same figures a slice of rows at a time", () => {
    const sliced = new ErrorAccumulator(input);
    sliced.add("returns", 1, 2);
    sliced.add("returns", 0, 1);
    expect(sliced.summary()).toEqual(summarizeErrors(input));
  });

  it("counts NaN / ±Inf where the reference is finite as infinitely wrong, over the bound; leaves out cells the reference lost", () => {
    const broken = {
      ...input,
      reference: { returns: new Float64Array([Number.NaN, 2, 3, 0.1, 5, 9]) },
      chunked: { returns: new Float32Array([Number.NaN, Number.NaN, 3, 0.1, Number.POSITIVE_INFINITY, 0]) },
    };
    const summary = summarizeErrors(broken);
    expect(summary.nonFinite).toEqual({ chunked: 3, serial: 1 });
    // Row 0 token 1 and row 1 token 1 are NaN / Inf where the truth is 2 and 5; row 0 token 0 is lost by both.
    expect(summary).toMatchObject({ chunkedOnly: 2, lost: 1, overBound: 2, cells: 5 });
    expect(summary.maxAbs).toBe(Number.POSITIVE_INFINITY);
    expect(summary.worst).toEqual({ output: "returns", row: 0, token: 1 });
    expect(summary.worstFraction?.fraction).toBe(Number.POSITIVE_INFINITY);
    expect(summarizeErrors(input)).toMatchObject({ nonFinite: { chunked: 0, serial: 0 }, chunkedOnly: 0, lost: 0 });
  });

  it("[FLT_MAX, FLT_MAX, 1, 1] at γ = 1: the float32 Infinity at token 0 is over its bound, not 0 / 4", () => {
    const FLT_MAX = 3.4028234663852886e38;
    const truth = [2 * FLT_MAX + 2, FLT_MAX + 2, 2, 1];
    const summary = summarizeErrors({
      rows: 1,
      cols: 4,
      lengths: [4],
      reference: { returns: Float64Array.from(truth) },
      chunked: { returns: new Float32Array([Number.POSITIVE_INFINITY, FLT_MAX, 2, 1]) },
      bound: { returns: Float64Array.from(truth, (x) => x * 2 ** -20) },
      precision: "float32",
    });
    expect(summary.overBound).toBe(1);
    expect(summary.maxAbs).toBe(Number.POSITIVE_INFINITY);
    expect(summary.worst).toEqual({ output: "returns", row: 0, token: 0 });
    expect(summary.lost).toBe(0);
  });

  it("pairs the max abs error with the bound of its own cell, and names the worst error / bound", () => {
    const summary = summarizeErrors(input);
    expect(summary.boundAtMax).toBe(0.1); // row 0, token 1: error 0.5
    expect(summary.worstFraction).toEqual({ fraction: 5, cell: { output: "returns", row: 0, token: 1 } });
    const within = summarizeErrors({ ...input, bound: { returns: new Float64Array([0, 1, 0, 1e-7, 0, 0]) } });
    expect(within.maxAbs).toBeLessThanOrEqual(within.boundAtMax ?? -1);
    expect(within.worstFraction?.fraction).toBeLessThanOrEqual(1);
  });
});
