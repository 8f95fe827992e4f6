import { formatSeconds } from "./benchFormat";

/**
 * Per-token runs one chain of tensor ops per token, and on some backends more than linearly in T
 * (measured on wasm: 29 ms at 1×1024, 469 ms at 8×4096). Two short calibration runs, on the first
 * `cols/2` and `cols` tokens of the same rows, give the growth; the full run is extrapolated from
 * the longer one along it (between linear and quadratic in T, whatever the noise says).
 */
export interface SkipEstimate {
  /** Estimated time of one run at the full size, in ms. */
  perRunMs: number;
  /** Estimated time of everything the row would run (warm-up, probe, timed runs), in ms. */
  totalMs: number;
  /** The growth exponent used: time ∝ T^exponent. */
  exponent: number;
  skip: boolean;
}

/** The longer calibration length: a prefix of the row, or the whole row when it is short. */
export function calibrationCols(cols: number): number {
  return Math.min(cols, 512);
}

export interface Calibration {
  cols: number;
  ms: number;
}

export function estimatePerToken(
  short: Calibration,
  long: Calibration,
  cols: number,
  runs: number,
  limitMs: number,
): SkipEstimate {
  const measured = Math.log(long.ms / short.ms) / Math.log(long.cols / short.cols);
  const exponent = Number.isFinite(measured) ? Math.min(2, Math.max(1, measured)) : 1;
  const perRunMs = long.ms * (cols / Math.max(1, long.cols)) ** exponent;
  const totalMs = perRunMs * runs;
  return { perRunMs, totalMs, exponent, skip: totalMs > limitMs };
}

/** Runs a timed row makes besides its median's: the warm-up and the probe that sizes a sample. */
export const EXTRA_RUNS = 2;

export function skipNote(estimate: SkipEstimate, limitMs: number, long: Calibration, rows: number): string {
  return (
    `skipped: about ${formatSeconds(estimate.perRunMs)} per run, ${formatSeconds(estimate.totalMs)} in all, ` +
    `over the ${formatSeconds(limitMs)} limit (estimated from a ${rows}×${long.cols} run of ${long.ms.toFixed(1)} ms, ` +
    `time growing as T^${estimate.exponent.toFixed(2)})`
  );
}

/**
 * After the warm-up the time of one run is known: a row whose remaining runs would still pass the
 * limit stops there (the estimate was too low), with this note.
 */
export function warmupSkipNote(warmupMs: number, remainingRuns: number, limitMs: number): string | undefined {
  const totalMs = warmupMs * (remainingRuns + 1);
  if (totalMs <= limitMs) return undefined;
  return (
    `skipped after the warm-up: it took ${formatSeconds(warmupMs)}, so the ${remainingRuns} runs left would make ` +
    `about ${formatSeconds(totalMs)} in all, over the ${formatSeconds(limitMs)} limit`
  );
}
