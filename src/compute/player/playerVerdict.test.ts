import { describe, expect, it } from "vitest";
import type { ScanProblem } from "../../core";
import { coreRun, replayOf, traceOf } from "../../testing/playerTestKit";
import { cellView } from "./cells";
import { errorSummary } from "./errorSummary";
import { frame } from "./frame";

const FLT_MAX = 3.4028234663852886e38;

/** [FLT_MAX, FLT_MAX, 1, 1] at γ = 1: float32 overflows at token 0 where the float64 truth is 6.8e38. */
const overflowing: ScanProblem = {
  kind: "discounted",
  rewards: { rows: 1, cols: 4, data: Float64Array.from([FLT_MAX, FLT_MAX, 1, 1]) },
  discount: 1,
  chunkSize: 4,
};

describe("the player's verdict on a non-finite result", () => {
  it("an engine Infinity where the float64 truth is finite is over its bound, in the summary and the caption", () => {
    const run = coreRun(overflowing);
    expect(run.outputs.kind === "discounted" && run.outputs.returns[0]).toBe(Number.POSITIVE_INFINITY);
    const r = replayOf(overflowing, run);
    expect(Number.isFinite(r.serial[0])).toBe(true);
    const s = errorSummary(r);
    expect(s).toMatchObject({ cells: 4, overBound: 1, nonFiniteOver: 1, nonFinite: 0 });
    expect(s.maxAbs).toBe(Number.POSITIVE_INFINITY);
    const trace = traceOf(overflowing, run);
    const last = frame(trace, trace.steps.length - 1, 0);
    expect(last.caption).toMatch(/1 of 4 measured cells are over their error bound/);
    expect(last.caption).not.toMatch(/within/);
    // The error lane marks the cell over its bound (ratio above 1), not NaN.
    const error = cellView(r, last, "error", 0, r.cols - 1);
    expect(error.ratio).toBe(Number.POSITIVE_INFINITY);
  });

  it("a cell the reference itself lost is counted apart, never within", () => {
    const withNaN: ScanProblem = {
      ...overflowing,
      rewards: { rows: 1, cols: 4, data: Float64Array.from([1, Number.NaN, 1, 1]) },
      allowNonFinite: true,
    } as ScanProblem;
    const trace = traceOf(withNaN);
    const s = errorSummary(trace.replay);
    expect(s.nonFinite).toBe(2); // tokens 0 and 1: the serial loop carries the NaN back
    const last = frame(trace, trace.steps.length - 1, 0);
    expect(last.caption).toMatch(/2 cells where the float64 reference itself is NaN or ±Inf are left out/);
  });

  it("a cell whose bound is infinite is not counted as checked, nor as within", () => {
    const run = coreRun({ ...overflowing, rewards: { rows: 1, cols: 4, data: Float64Array.from([1, 2, 3, 4]) } });
    const r = replayOf({ ...overflowing, rewards: { rows: 1, cols: 4, data: Float64Array.from([1, 2, 3, 4]) } }, run);
    const unbounded = { ...r, bound: Float64Array.from(r.bound, (b, j) => (j === 2 ? Number.POSITIVE_INFINITY : b)) };
    const s = errorSummary(unbounded);
    expect(s).toMatchObject({ cells: 3, overBound: 0, nonFinite: 1 });
  });
});
