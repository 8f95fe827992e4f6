import { describe, expect, it } from "vitest";
import { ulpDistance } from "../../heatmap/cellErrors";
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

  it("gives the same figures a slice of rows at a time", () => {
    const sliced = new ErrorAccumulator(input);
    sliced.add("returns", 1, 2);
    sliced.add("returns", 0, 1);
    expect(sliced.summary()).toEqual(summarizeErrors(input));
  });

  it("leaves NaN and ±Inf cells out of the figures and counts them, per side", () => {
    const broken = {
      ...input,
      reference: { returns: new Float64Array([Number.NaN, 2, 3, 0.1, 5, 9]) },
      chunked: { returns: new Float32Array([Number.NaN, Number.NaN, 3, 0.1, Number.POSITIVE_INFINITY, 0]) },
    };
    const summary = summarizeErrors(broken);
    expect(summary.nonFinite).toEqual({ chunked: 3, serial: 1 });
    expect(summary.maxAbs).toBe(Math.abs(Math.fround(0.1) - 0.1)); // the finite cells: only 0.1 rounded
    expect(summary.overBound).toBe(0);
    expect(summary.cells).toBe(5);
    expect(summarizeErrors(input).nonFinite).toEqual({ chunked: 0, serial: 0 });
  });
});
