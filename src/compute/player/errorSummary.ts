import type { Replay } from "./replay";

export interface ErrorSummary {
  /** Cells measured: every real token whose float64 reference is finite. */
  cells: number;
  /** Largest |error|; Infinity when the engine gave NaN or ±Inf where the reference is finite. */
  maxAbs: number;
  /** Largest error as a fraction of its bound, and how many cells are over their bound. */
  maxRatio: number;
  overBound: number;
  /** Of those over, the cells the engine gave NaN or ±Inf where the reference is finite. */
  nonFiniteOver: number;
  /** Cells where the replayed carry step differs from the engine's output (0 on IEEE backends). */
  replayMismatches: number;
  /** Cells where the reference (or its bound) is NaN or ±Inf: nothing to measure, left out of the figures. */
  nonFinite: number;
}

/**
 * One cell's |engine − serial| and its fraction of the bound. A NaN or ±Inf from the engine where
 * the reference is finite is infinitely wrong (over any bound); an error over a bound of 0 is
 * infinitely many times it.
 */
export function cellError(
  r: Pick<Replay, "engineOut" | "serial" | "bound">,
  j: number,
): { error: number; ratio: number } {
  const actual = r.engineOut[j];
  const reference = r.serial[j];
  const bound = r.bound[j];
  if (!Number.isFinite(reference)) return { error: Number.NaN, ratio: Number.NaN };
  const error = Number.isFinite(actual) ? Math.abs(actual - reference) : Number.POSITIVE_INFINITY;
  const ratio = error === 0 ? 0 : bound > 0 ? error / bound : Number.POSITIVE_INFINITY;
  return { error, ratio };
}

const summaries = new WeakMap<Replay, ErrorSummary>();

/** The comparison the last step reports, over every real token of every row (computed once per run). */
export function errorSummary(r: Replay): ErrorSummary {
  let summary = summaries.get(r);
  if (!summary) {
    summary = summarise(r);
    summaries.set(r, summary);
  }
  return summary;
}

function summarise(r: Replay): ErrorSummary {
  let cells = 0;
  let maxAbs = 0;
  let maxRatio = 0;
  let overBound = 0;
  let nonFiniteOver = 0;
  let replayMismatches = 0;
  let nonFinite = 0;
  for (let b = 0; b < r.rows; b++) {
    for (let t = 0; t < r.lengths[b]; t++) {
      const j = b * r.cols + t;
      if (!Object.is(r.combined[j], r.engineOut[j])) replayMismatches++;
      // A NaN or ±Inf input reaches the reference here (§b.4), or a bound is infinite: there is
      // nothing to measure against, so the cell is not counted as within its bound.
      if (!Number.isFinite(r.serial[j]) || !Number.isFinite(r.bound[j])) {
        nonFinite++;
        continue;
      }
      const { error, ratio } = cellError(r, j);
      cells++;
      maxAbs = Math.max(maxAbs, error);
      maxRatio = Math.max(maxRatio, ratio);
      if (!(error <= r.bound[j])) {
        overBound++;
        if (!Number.isFinite(r.engineOut[j])) nonFiniteOver++;
      }
    }
  }
  return { cells, maxAbs, maxRatio, overBound, nonFiniteOver, replayMismatches, nonFinite };
}
