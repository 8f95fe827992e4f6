import { z } from "zod";
import { KL_LOSS_TYPES, SLIME_ESTIMATORS } from "../core";
import { anyNumbers, anyScalar, maskRow } from "./numericArrays";

/**
 * A slime train dump as a case (cases/SCHEMA.md, kind slime_dump): exactly what core's
 * `replaySlime(samples, stored, settings)` takes, under slime's own names, so that `scanlab check`
 * replays the dump's verdict without the dump. The values under test are `stored`, the dump's own
 * advantages, returns and kl; no solver computes them. Per-token arrays and rewards may hold NaN
 * and ±Infinity, written as text (jsonNumberText): a diverged step is what the check must catch.
 */
const count = z.number().int().nonnegative();

/** `compute_advantages_and_returns`'s arguments, as slime's argparse names them (`args.<name>`). */
const settings = z.strictObject({
  advantage_estimator: z.enum(SLIME_ESTIMATORS),
  gamma: z.number(),
  lambd: z.number(),
  kl_coef: z.number(),
  kl_loss_type: z.enum(KL_LOSS_TYPES),
  normalize_advantages: z.boolean(),
  use_rollout_logprobs: z.boolean(),
  context_parallel_size: z.number().int().min(1),
  n_samples_per_prompt: z.number().int().min(1),
  /** Not `--disable-rewards-normalization`. */
  rewards_normalization: z.boolean(),
  /** Not `--disable-grpo-std-normalization`. */
  grpo_std_normalization: z.boolean(),
});

/** One sample's inputs: the dump's fields, each per-token array one value per response token. */
const sample = z.strictObject({
  reward: anyScalar,
  raw_reward: anyScalar.optional(),
  group: count.optional(),
  loss_mask: maskRow,
  data_parallel_rank: count.optional(),
  total_length: count.optional(),
  log_probs: anyNumbers.optional(),
  ref_log_probs: anyNumbers.optional(),
  rollout_log_probs: anyNumbers.optional(),
  kl: anyNumbers.optional(),
  values: anyNumbers.optional(),
});

/** What the dump stored for a sample: the values under test. */
const stored = z.strictObject({
  advantages: anyNumbers,
  returns: anyNumbers,
  kl: anyNumbers.optional(),
});

export const slimeDumpCase = z.strictObject({
  name: z.string().min(1),
  note: z.string().optional(),
  kind: z.literal("slime_dump"),
  settings,
  samples: z.array(sample).max(2 ** 16),
  stored: z.array(stored).max(2 ** 16),
});
