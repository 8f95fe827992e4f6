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
