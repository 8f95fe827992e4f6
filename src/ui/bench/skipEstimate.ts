/**
 * Per-token runs one chain of tensor ops per token, so its time grows with T: a short calibration
 * run on the first `calibrationCols` tokens of the same rows, scaled by T, estimates a full run.
 */
export interface SkipEstimate {
  /** Estimated time of one run at the full size, in ms. */
  perRunMs: number;
  /** Estimated time of everything the row would run (warm-up, probe, timed runs), in ms. */
  totalMs: number;
  skip: boolean;
}

/** The calibration length: a short prefix of the row, or the whole row when it is short. */
export function calibrationCols(cols: number): number {
  return Math.min(cols, 512);
}

export function estimatePerToken(
  calibrationMs: number,
  calibratedCols: number,
  cols: number,
  runs: number,
  limitMs: number,
): SkipEstimate {
  const perRunMs = (calibrationMs * cols) / Math.max(1, calibratedCols);
  const totalMs = perRunMs * runs;
  return { perRunMs, totalMs, skip: totalMs > limitMs };
}

/** Runs a timed row makes besides its median's: the warm-up and the probe that sizes a sample. */
export const EXTRA_RUNS = 2;

export function skipNote(estimate: SkipEstimate, limitMs: number, calibrationMs: number, calibrated: string): string {
  return (
    `skipped: about ${formatSeconds(estimate.perRunMs)} per run, ${formatSeconds(estimate.totalMs)} in all, ` +
    `over the ${formatSeconds(limitMs)} limit (estimated from a ${calibrated} run of ${calibrationMs.toFixed(1)} ms)`
  );
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return s >= 10 ? `${Math.round(s)} s` : `${s.toFixed(1)} s`;
}
