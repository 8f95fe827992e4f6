import type { BenchCase } from "./benchPlan";

/** How a row ended. */
export type BenchStatus =
  /** Timed, and every run within its per-element error bound. */
  | "ok"
  /** Timed, but some run had an element beyond its bound (or a NaN): the time is not a valid figure. */
  | "wrong"
  /** Not run: estimated to take too long (per-token only). */
  | "skipped"
  /** The backend did not come up in this browser: nothing was run. */
  | "unavailable"
  /** A run threw. */
  | "failed";

/** One measured row, as the JSON holds it. */
export interface BenchRow extends BenchCase {
  status: BenchStatus;
  /** Median of the timed runs, in ms (absent unless timed). */
  medianMs?: number;
  /** Each timed run, in ms (one sample is `loops` back-to-back runs, divided). */
  timesMs: number[];
  /** Runs per timing sample: a fast run is repeated until a sample outlasts the timer's resolution. */
  loops: number;
  /** The first run, which compiles shaders and builds kernels: never part of the median. */
  warmupMs?: number;
  /** Largest |result − float64 serial reference| over every run, warm-up included. */
  maxAbsError?: number;
  /** Largest ratio of an element's error to its own float32 bound over every run (≤ 1 is correct). */
  worstBoundFraction?: number;
  /** Runs whose every element was checked against its bound. */
  checkedRuns: number;
  /** tf.memory().numTensors before the warm-up and after the last run (absent for the JS loop). */
  tensorsBefore?: number;
  tensorsAfter?: number;
  /** Why the row was skipped or failed, or what to know about it. */
  note?: string;
  /** For a skipped per-token row: the estimated time of one run, in ms. */
  estimatedMs?: number;
}

/** What the page knows about where it ran. */
export interface BenchEnvironment {
  userAgent: string;
  hardwareConcurrency: number;
  /** The WebGPU adapter, e.g. "google / swiftshader (fallback adapter)", or why there is none. */
  adapter: string;
  hasWebGPU: boolean;
}

export function leakedTensors(row: BenchRow): number {
  if (row.tensorsBefore === undefined || row.tensorsAfter === undefined) return 0;
  return row.tensorsAfter - row.tensorsBefore;
}
