import { describe, expect, it } from "vitest";
import { calibrationCols, estimatePerToken, skipNote, warmupSkipNote } from "./skipEstimate";

describe("per-token skip estimate", () => {
  it("calibrates on at most 512 tokens", () => {
    expect(calibrationCols(32768)).toBe(512);
    expect(calibrationCols(100)).toBe(100);
  });

  it("scales the faster calibration per token linearly to the full row", () => {
    const linear = estimatePerToken({ cols: 256, ms: 20 }, { cols: 512, ms: 40 }, 32768, 7, 60_000);
    expect(linear.perRunMs).toBeCloseTo(2560);
    expect(linear.totalMs).toBeCloseTo(17_920);
    expect(linear.skip).toBe(false);
    // A burst of load on one calibration run (the longer one here) does not inflate the estimate.
    const noisy = estimatePerToken({ cols: 256, ms: 20 }, { cols: 512, ms: 400 }, 32768, 7, 60_000);
    expect(noisy.from).toEqual({ cols: 256, ms: 20 });
    expect(noisy.perRunMs).toBeCloseTo(2560);
    const slow = estimatePerToken({ cols: 256, ms: 200 }, { cols: 512, ms: 400 }, 32768, 7, 60_000);
    expect(slow.perRunMs).toBeCloseTo(25_600);
    expect(slow.skip).toBe(true);
  });

  it("says what was estimated, from what", () => {
    const e = estimatePerToken({ cols: 256, ms: 25 }, { cols: 512, ms: 40 }, 32768, 30, 60_000);
    expect(skipNote(e, 60_000, 64)).toBe(
      "skipped: about 2.6 s per run, 77 s in all, over the 60 s limit (estimated from a 64×512 run of 40.0 ms, scaled linearly in T)",
    );
  });

  it("stops a row after its warm-up when the runs left would pass the limit", () => {
    expect(warmupSkipNote(8000, 6, 60_000)).toBeUndefined();
    expect(warmupSkipNote(9000, 6, 60_000)).toBe(
      "skipped after the warm-up: it took 9.0 s, so the 6 runs left would make about 63 s in all, over the 60 s limit",
    );
  });
});
