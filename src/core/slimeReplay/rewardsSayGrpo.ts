import { judgeRewardStage } from "./rewardStage";
import { type ReplaySample, SLIME_DEFAULTS } from "./settings";

/**
 * Whether the stored rewards say grpo where the returns read as REINFORCE++-baseline (R − β·kl):
 * each prompt group's rewards std-normalised (grpo's post-processing, slime's default switches)
 * and not merely mean-centred (the baseline's). The reward stage runs before the advantages, so it
 * names the estimator the run was given even when the advantages depart from it (grpo with
 * kl_coef applied, slime #397). Null when the rewards do not tell (no raw rewards or groups, both
 * or neither post-processing matches); else the reason, in words.
 */
export function rewardsSayGrpo(samples: ReplaySample[]): string | null {
  const as = (advantageEstimator: "grpo" | "reinforce_plus_plus_baseline") =>
    judgeRewardStage(samples, { ...SLIME_DEFAULTS, advantageEstimator });
  const grpo = as("grpo");
  if (!grpo.checked || !grpo.passed) return null;
  const baseline = as("reinforce_plus_plus_baseline");
  if (!baseline.checked || baseline.passed) return null;
  return "advantage_estimator grpo: the returns read as R − β·kl (reinforce_plus_plus_baseline's), but the stored rewards are std-normalised in each prompt group (grpo's post-processing, not the baseline's mean-centring): read as grpo with the KL penalty applied (see the diagnosis)";
}
