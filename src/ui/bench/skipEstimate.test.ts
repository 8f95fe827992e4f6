import { describe, expect, it } from "vitest";
import { calibrationCols, estimatePerToken, skipNote } from "./skipEstimate";

describe("per-token skip estimate", () => {
  it("calibrates on at most 512 tokens", () => {
    expect(calibrationCols(32768)).toBe(512);
    expect(calibrationCols(100)).toBe(100);
  });

  it("scales the calibration run by T and counts every run of the row", () => {
    const e = estimatePerToken(40, 128, 32768, 7, 60_000);
    expect(e.perRunMs).toBe(10_240);
    expect(e.totalMs).toBe(71_680);
    expect(e.skip).toBe(true);
    expect(estimatePerToken(40, 128, 4096, 7, 60_000).skip).toBe(false);
  });

  it("says what was estimated, from what", () => {
    const e = estimatePerToken(40, 128, 32768, 7, 60_000);
    expect(skipNote(e, 60_000, 40, "64×128")).toBe(
      "skipped: about 10 s per run, 72 s in all, over the 60 s limit (estimated from a 64×128 run of 40.0 ms)",
    );
  });
});
