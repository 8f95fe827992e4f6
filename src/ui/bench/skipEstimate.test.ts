import { describe, expect, it } from "vitest";
import { calibrationCols, estimatePerToken, skipNote, warmupSkipNote } from "./skipEstimate";

describe("per-token skip estimate", () => {
  it("calibrates on at most 512 tokens", () => {
    expect(calibrationCols(32768)).toBe(512);
    expect(calibrationCols(100)).toBe(100);
  });

  it("extrapolates along the measured growth, between linear and quadratic", () => {
    const linear = estimatePerToken({ cols: 256, ms: 20 }, { cols: 512, ms: 40 }, 32768, 7, 60_000);
    expect(linear.exponent).toBeCloseTo(1);
    expect(linear.perRunMs).toBeCloseTo(2560);
    expect(linear.totalMs).toBeCloseTo(17_920);
    expect(linear.skip).toBe(false);
    // Quadratic growth (as when T/2 takes a quarter): 64× the tokens, 4096× the time.
    const quadratic = estimatePerToken({ cols: 256, ms: 10 }, { cols: 512, ms: 40 }, 32768, 7, 60_000);
    expect(quadratic.exponent).toBeCloseTo(2);
    expect(quadratic.perRunMs).toBeCloseTo(163_840);
    expect(quadratic.skip).toBe(true);
    // Noise never makes a longer row look cheaper, nor worse than quadratic.
    expect(estimatePerToken({ cols: 256, ms: 50 }, { cols: 512, ms: 40 }, 1024, 7, 1e9).exponent).toBe(1);
    expect(estimatePerToken({ cols: 256, ms: 1 }, { cols: 512, ms: 40 }, 1024, 7, 1e9).exponent).toBe(2);
  });

  it("says what was estimated, from what", () => {
    const e = estimatePerToken({ cols: 256, ms: 20 }, { cols: 512, ms: 40 }, 32768, 30, 60_000);
    expect(skipNote(e, 60_000, { cols: 512, ms: 40 }, 64)).toBe(
      "skipped: about 2.6 s per run, 77 s in all, over the 60 s limit (estimated from a 64×512 run of 40.0 ms, time growing as T^1.00)",
    );
  });

  it("stops a row after its warm-up when the runs left would pass the limit", () => {
    expect(warmupSkipNote(8000, 6, 60_000)).toBeUndefined();
    expect(warmupSkipNote(9000, 6, 60_000)).toBe(
      "skipped after the warm-up: it took 9.0 s, so the 6 runs left would make about 63 s in all, over the 60 s limit",
    );
  });
});
