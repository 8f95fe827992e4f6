import { formatSeconds } from "./benchFormat";

/**
 * Per-token runs one chain of tensor ops per token, each O(B) on every backend (the engine's
 * sliceAlong keeps wasm's column reads from copying the batch), so its time grows linearly in T.
 * Two short calibration runs, on the first `cols/2` and `cols` tokens of the same rows, give its
 * cost per token; the faster of the two is taken (load on a shared machine only ever adds time)
 * and scaled to the full row. An estimate that proves low is caught after the row's warm-up
 * (warmupSkipNote).
 */
export interface SkipEstimate {
  /** Estimated time of one run at the full size, in ms. */
  perRunMs: number;
  /** Estimated time of everything the row would run (warm-up, probe, timed runs), in ms. */
  totalMs: number;
  /** The calibration run the estimate was scaled from. */
  from: Calibration;
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
  const perToken = (c: Calibration) => c.ms / Math.max(1, c.cols);
  const from = perToken(short) < perToken(long) ? short : long;
  const perRunMs = perToken(from) * cols;
  const totalMs = perRunMs * runs;
  return { perRunMs, totalMs, from, skip: totalMs > limitMs };
}

/** Runs a timed row makes besides its median's: the warm-up and the probe that sizes a sample. */
export const EXTRA_RUNS = 2;

export function skipNote(estimate: SkipEstimate, limitMs: number, rows: number): string {
  const { from } = estimate;
  return (
    `skipped: about ${formatSeconds(estimate.perRunMs)} per run, ${formatSeconds(estimate.totalMs)} in all, ` +
    `over the ${formatSeconds(limitMs)} limit (estimated from a ${rows}×${from.cols} run of ${from.ms.toFixed(1)} ms, ` +
    `scaled linearly in T)`
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
