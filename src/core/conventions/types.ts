import type { FloatArray } from "../batch";

export const LIBRARIES = ["slime", "openrlhf", "verl"] as const;
export type Library = (typeof LIBRARIES)[number];
export type ConventionEstimator = "reinforce_pp" | "gae";

/** A ragged batch as a trainer hands it over: outcome rewards, per-token KL, loss masks, critic values. */
export interface ConventionBatch<A extends FloatArray = FloatArray> {
  rewards: ArrayLike<number>;
  kl: A[];
  lossMasks: ArrayLike<number>[];
  /** GAE only. */
  values?: A[];
}

export interface ConventionParams {
  gamma: number;
  /** GAE only. */
  lambd?: number;
  klCoef: number;
  /** Whiten the advantages (slime's `normalize_advantages`; OpenRLHF and verl always do). */
  normalize: boolean;
  /** OpenRLHF's clamp of the outcome reward; null or absent for none. */
  rewardClipRange?: readonly [number, number] | null;
}

export interface ConventionResult<A extends FloatArray = FloatArray> {
  tokenLevelRewards: A[];
  returns: A[];
  advantages: A[];
  /** Per sequence, the token that received the outcome reward (−1 when it fell into padding). */
  rewardIndex: number[];
}

/** slime's chunk size (the default of `chunked_discounted_returns`), the engine's default for conventions. */
export const CONVENTION_CHUNK_SIZE = 128;

/**
 * One library convention to compute: the library, the estimator, its inputs and parameters, and
 * the chunk size of the scans that compute it (any chunk size gives the same math; it changes only
 * the float32 rounding, which the error bounds follow). Use CONVENTION_CHUNK_SIZE unless asked.
 */
export interface ConventionProblem<A extends FloatArray = FloatArray> {
  library: Library;
  estimator: ConventionEstimator;
  batch: ConventionBatch<A>;
  params: ConventionParams;
  chunkSize: number;
  /**
   * Opt-in, as for ScanProblem: run NaN and ±Inf in the outcome rewards, KL and values instead of
   * rejecting them, to show where each library's rules carry them. Absent: a ScanInputError.
   */
  allowNonFinite?: boolean;
}
