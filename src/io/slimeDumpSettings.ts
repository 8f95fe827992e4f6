import type { SlimeSettings } from "../core";
import type { SlimeDumpCase } from "./caseSchema";

/** SlimeSettings under slime's argparse names, as a slime_dump case writes them (cases/SCHEMA.md). */
export type SlimeDumpSettings = SlimeDumpCase["settings"];

/**
 * Both directions spelled out field by field, without defaults: a field SlimeSettings gains is then
 * a type error here, never a setting a case silently drops.
 */
export function settingsToCase(s: SlimeSettings): SlimeDumpSettings {
  return {
    advantage_estimator: s.advantageEstimator,
    gamma: s.gamma,
    lambd: s.lambd,
    kl_coef: s.klCoef,
    kl_loss_type: s.klLossType,
    normalize_advantages: s.normalizeAdvantages,
    use_rollout_logprobs: s.useRolloutLogprobs,
    context_parallel_size: s.contextParallelSize,
    n_samples_per_prompt: s.nSamplesPerPrompt,
    rewards_normalization: s.rewardsNormalization,
    grpo_std_normalization: s.grpoStdNormalization,
  };
}

export function settingsFromCase(s: SlimeDumpSettings): SlimeSettings {
  return {
    advantageEstimator: s.advantage_estimator,
    gamma: s.gamma,
    lambd: s.lambd,
    klCoef: s.kl_coef,
    klLossType: s.kl_loss_type,
    normalizeAdvantages: s.normalize_advantages,
    useRolloutLogprobs: s.use_rollout_logprobs,
    contextParallelSize: s.context_parallel_size,
    nSamplesPerPrompt: s.n_samples_per_prompt,
    rewardsNormalization: s.rewards_normalization,
    grpoStdNormalization: s.grpo_std_normalization,
  };
}
