import { promptGroups } from "../promptGroups";
import { type RewardStageResult, replayRewardGroups, rewardNormalisation } from "../rewardStage";
import type { ReplaySample, SlimeSettings } from "../settings";
import type { KnownVariant } from "./knownVariant";

/**
 * What slime's `_post_process_rewards` computes today (624b824) when the batch's sample count is not
 * n_samples_per_prompt × rollout_batch_size: `rewards.view(-1, rewards.shape[-1])` makes the whole
 * batch one row, so every sample is normalised with the batch's mean (and std) instead of its own
 * group's. With the float32 bound of that computation, so a dump can be judged against it.
 * Not checked (as replayRewardStage) when a raw reward or a group is missing.
 */
export function replayWholeBatchRewards(samples: ReplaySample[], settings: SlimeSettings): RewardStageResult {
  const normalisation = rewardNormalisation(settings);
  if (normalisation === "none") return { checked: false, why: "these settings do not normalise the rewards" };
  const missing = samples.findIndex((s) => s.rawReward === undefined);
  if (missing >= 0) return { checked: false, why: `sample ${missing} has no raw reward` };
  const whole = [{ group: 0, samples: samples.map((_, i) => i) }];
  // Named by their prompt groups in messages: the batch is one row only to slime's arithmetic.
  return { ...replayRewardGroups(samples, whole, normalisation, "batch"), groups: promptGroups(samples) ?? whole };
}

/**
 * slime issue #2230 and #1414, open at 624b824: the whole-batch fallback of the group normalisation.
 * Uneven groups (an aborted or filtered sample) are the usual way in, but slime's test is the count
 * against n_samples_per_prompt × rollout_batch_size, and a dump records neither rollout_batch_size nor
 * that test: even groups take the fallback too when the count is off (the fixtures in
 * cases/dumps/generated were written with n 2 and rollout_batch_size 1, and did). So it applies to
 * every normalised batch of two or more known groups, where it differs from the intended math; the
 * stored rewards decide whether it is what happened.
 */
export const unevenGroupsBatchNorm: KnownVariant = {
  id: "uneven_groups_batch_norm",
  title: "the rewards normalised over the whole batch instead of per prompt group (sample count ≠ n × rollout batch)",
  source: "slime issue #2230, #1414 (open at 624b824)",
  stage: "rewards",
  applies(samples, settings) {
    if (rewardNormalisation(settings) === "none") return false;
    if (samples.some((s) => s.rawReward === undefined)) return false;
    const groups = promptGroups(samples);
    return groups !== null && groups.length >= 2;
  },
  reference(samples, settings) {
    const replay = replayWholeBatchRewards(samples, settings);
    return replay.checked ? { rewards: replay.reference } : {};
  },
};
