import type { ReplaySample, SlimeSettings } from "./settings";

const GROUP_NORMALISED = ["grpo", "gspo", "cispo", "reinforce_plus_plus_baseline"];

/**
 * The rewards slime's `_post_process_rewards` means to give, from the raw rewards: for grpo, gspo,
 * cispo and the baseline (with rewards normalisation on) the prompt group's mean subtracted, and
 * for the first three divided by the group's unbiased std + 1e-6; else the raw reward. Null when
 * the dump does not say the raw rewards (or, where it matters, the groups): then nothing can
 * depart from it. Float64 (slime: float32).
 */
export function slimeRewards(samples: ReplaySample[], settings: SlimeSettings): Float64Array | null {
  if (samples.some((s) => s.rawReward === undefined)) return null;
  const raw = samples.map((s) => s.rawReward as number);
  if (!settings.rewardsNormalization || !GROUP_NORMALISED.includes(settings.advantageEstimator)) {
    return Float64Array.from(raw);
  }
  if (samples.some((s) => s.group === undefined)) return null;
  const groups = new Map<number, number[]>();
  samples.forEach((s, i) => {
    const members = groups.get(s.group as number);
    if (members) members.push(i);
    else groups.set(s.group as number, [i]);
  });
  const divide = settings.advantageEstimator !== "reinforce_plus_plus_baseline" && settings.grpoStdNormalization;
  const out = new Float64Array(samples.length);
  for (const members of groups.values()) {
    const mean = members.reduce((a, i) => a + raw[i], 0) / members.length;
    const centred = members.map((i) => raw[i] - mean);
    // torch's std is unbiased: a group of one has NaN std, and slime's division gives NaN too.
    const std = Math.sqrt(centred.reduce((a, x) => a + x * x, 0) / (members.length - 1));
    members.forEach((i, j) => {
      out[i] = divide ? centred[j] / (std + 1e-6) : centred[j];
    });
  }
  return out;
}
