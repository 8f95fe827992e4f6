import type { SlimeSettings } from "../../core";
import type { PlaygroundState } from "../../io/playgroundState";
import { BASE_SETTINGS } from "../../io/presets";

/** One sample's lanes as the worker hands them over. */
export interface SampleLanes {
  length: number;
  reward: number;
  lossMask: ArrayLike<number>;
  kl: ArrayLike<number> | null;
  values: ArrayLike<number> | null;
}

/**
 * A dump's sample as a playground state, so its scan can be watched token by token (and opened in
 * the player from there). The playground scans what slime's reinforce_plus_plus and ppo scan: the
 * masked KL with the outcome at the last unmasked token, or GAE over the token rewards −β·kl with the
 * reward on the last response token (slime's ppo, which masks neither) and the critic's values.
 * The other estimators broadcast a normalised reward, with no scan to watch: a sentence says so.
 */
export function sampleToPlayground(sample: SampleLanes, settings: SlimeSettings): PlaygroundState | string {
  const f32 = (values: ArrayLike<number>) => Array.from(values, Math.fround);
  const lossMask = Array.from(sample.lossMask, (m) => (m === 0 ? 0 : 1)) as (0 | 1)[];
  const kl = sample.kl ? f32(sample.kl) : new Array<number>(sample.length).fill(0);
  const common = { ...BASE_SETTINGS, gamma: settings.gamma, klCoef: settings.klCoef, chunkSize: 128 };
  if (settings.advantageEstimator === "reinforce_plus_plus") {
    return {
      ...common,
      estimator: "reinforce_pp",
      data: { source: "inline", rows: [{ length: sample.length, kl, lossMask, outcome: Math.fround(sample.reward) }] },
    };
  }
  if (settings.advantageEstimator === "ppo") {
    if (!sample.values) return "this sample has no critic values: ppo's GAE needs them";
    const rewards = kl.map((k) => Math.fround(-settings.klCoef * k));
    if (sample.length > 0) rewards[sample.length - 1] = Math.fround(rewards[sample.length - 1] + sample.reward);
    return {
      ...common,
      estimator: "gae",
      lambd: settings.lambd,
      data: {
        source: "inline",
        rows: [
          {
            length: sample.length,
            rewards,
            values: f32(sample.values),
            kl,
            lossMask,
            outcome: Math.fround(sample.reward),
          },
        ],
      },
    };
  }
  return `${settings.advantageEstimator} gives every token the sample's normalised reward: there is no scan to watch`;
}
