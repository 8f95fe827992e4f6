import { ppoRewardIndices, replayReference } from "../replayReference";
import type { KnownVariant } from "./knownVariant";
import { ppoTokenRewards } from "./variantInputs";

/**
 * slime before PR #2114: the ppo branch did `k *= kl_coef` (kl_coef = −args.kl_coef) and
 * `k[-1] += reward` on the very tensors stored as `rollout_data["kl"]`, so the logged and dumped
 * kl is the token-level reward. Advantages and returns were computed from that tensor, as meant.
 * Needs the raw KL: recomputed from log-probs, or zero when kl_coef is 0 (a stored kl alone
 * would be the scaled one itself).
 */
export const ppoKlInplace: KnownVariant = {
  id: "ppo_kl_inplace",
  title: "ppo's stored kl scaled in place (−kl_coef·kl, the reward on the last token)",
  source: "slime PR #2114",
  stage: "kl",
  applies(samples, settings) {
    if (settings.advantageEstimator !== "ppo") return false;
    if (settings.klCoef === 0) return true;
    const logProbs = (s: (typeof samples)[number]) => (settings.useRolloutLogprobs ? s.rolloutLogProbs : s.logProbs);
    return samples.some((s) => logProbs(s) !== undefined && s.refLogProbs !== undefined);
  },
  reference(samples, settings) {
    const { kl } = replayReference(samples, settings);
    const rewardAt = ppoRewardIndices(samples, settings.contextParallelSize);
    return { kl: ppoTokenRewards(kl, samples, settings.klCoef, rewardAt) };
  },
};
