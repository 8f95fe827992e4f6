import type { FloatArray } from "../batch";
/**
 * The arguments of slime's `compute_advantages_and_returns` that decide a dump's advantages and
 * returns, under slime's own names. A dump does not store them: the user gives them, or the
 * dump interpreter guesses what the file decides (values present → ppo).
 */
export const SLIME_ESTIMATORS = [
  "grpo",
  "gspo",
  "cispo",
  "ppo",
  "reinforce_plus_plus",
  "reinforce_plus_plus_baseline",
] as const;
export type SlimeEstimator = (typeof SLIME_ESTIMATORS)[number];

/** `--kl-loss-type`: how `compute_approx_kl` turns log-probs into per-token KL. */
export const KL_LOSS_TYPES = ["k1", "k2", "k3", "low_var_kl"] as const;
export type KlLossType = (typeof KL_LOSS_TYPES)[number];

export interface SlimeSettings {
  advantageEstimator: SlimeEstimator;
  gamma: number;
  lambd: number;
  klCoef: number;
  klLossType: KlLossType;
  normalizeAdvantages: boolean;
  /** `--use-rollout-logprobs`: KL from the rollout engine's log-probs instead of the actor's. */
  useRolloutLogprobs: boolean;
  /**
   * `--context-parallel-size`: only ppo depends on it. Its CP rank 0 adds the reward to the last
   * element of its own slice, which is not always the last response token (CONTEXT_PARALLEL.md);
   * the dump's fields are full length either way.
   */
  contextParallelSize: number;
  /**
   * `--n-samples-per-prompt`: the size of a prompt's group, which `_post_process_rewards`
   * normalises on its own (grpo, gspo, cispo, reinforce_plus_plus_baseline).
   */
  nSamplesPerPrompt: number;
  /** Not `--disable-rewards-normalization`: the group normalisation of the raw rewards is on. */
  rewardsNormalization: boolean;
  /** Not `--disable-grpo-std-normalization`: grpo, gspo and cispo divide by the group's std + 1e-6. */
  grpoStdNormalization: boolean;
}

/** slime's defaults (arguments.py): γ = λ = 1, no KL penalty, k1, no normalisation. */
export const SLIME_DEFAULTS: SlimeSettings = {
  advantageEstimator: "grpo",
  gamma: 1,
  lambd: 1,
  klCoef: 0,
  klLossType: "k1",
  normalizeAdvantages: false,
  useRolloutLogprobs: false,
  contextParallelSize: 1,
  nSamplesPerPrompt: 1,
  rewardsNormalization: true,
  grpoStdNormalization: true,
};

/**
 * One training sample as the replay needs it. The log-probs are as stored (float32 or float64),
 * typed as plain `ArrayLike` so none can reach a scan that takes its array type as its precision;
 * so is the stored kl, widened (exactly) where the reference scans it. The critic's values
 * stay as stored: they are only read as numbers (GAE's precision is its rewards'), and a float64
 * copy was 35 MB at 4.4 M tokens.
 */
export interface ReplaySample {
  /** The scalar reward after slime's `_post_process_rewards` (the dump's `rewards`). */
  reward: number;
  /** Response length R; every per-token array has R entries. */
  lossMask: ArrayLike<number>;
  /**
   * The data-parallel rank that trained it: slime pads each rank's samples to that rank's longest
   * for its scans, which sets the float32 chunk boundaries (and so the bounds). Absent: one rank.
   */
  dataParallelRank?: number;
  /** Prompt + response: the context-parallel layout of the sample (ppo with contextParallelSize > 1). */
  totalLength?: number;
  logProbs?: ArrayLike<number>;
  refLogProbs?: ArrayLike<number>;
  rolloutLogProbs?: ArrayLike<number>;
  /**
   * The KL slime computed and stored (float32), as read: widened to float64 where the reference scans
   * it (there are no log-probs to recompute it from), and elsewhere only read as numbers. A float64
   * copy of every sample's was 35 MB at 4.4 M tokens.
   */
  kl?: ArrayLike<number>;
  /** The critic's values (ppo). */
  values?: FloatArray;
  /** The reward before `_post_process_rewards` (`local_raw_reward`, or the dump's `raw_reward` at its rollout position). */
  rawReward?: number;
  /**
   * The prompt's group, as recovered from the dump (samples of one prompt share their prompt tokens;
   * the train dump stores no group index). Absent: not known.
   */
  group?: number;
}

/** Which estimators broadcast a group-normalised scalar reward to every token (no scan). */
export function isBroadcastEstimator(e: SlimeEstimator): boolean {
  return e === "grpo" || e === "gspo" || e === "cispo";
}
