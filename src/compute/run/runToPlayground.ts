import type { SlimeSettings } from "../../core";
import type { DumpComparison, PlaygroundRow, PlaygroundState } from "../../io/playgroundState";
import { BASE_SETTINGS } from "../../io/presets";

/** One sample's lanes as the worker hands them over. */
export interface SampleLanes {
  length: number;
  reward: number;
  lossMask: ArrayLike<number>;
  kl: ArrayLike<number> | null;
  values: ArrayLike<number> | null;
}

const f32 = (values: ArrayLike<number>) => Array.from(values, Math.fround);

/**
 * One sample as the playground row slime's estimator scans: the masked KL with the outcome at the
 * last unmasked token (reinforce_plus_plus), or GAE over the token rewards −β·kl with the reward on
 * the last response token (slime's ppo, which masks neither) and the critic's values.
 */
function sampleRow(sample: SampleLanes, settings: SlimeSettings): PlaygroundRow | string {
  const lossMask = Array.from(sample.lossMask, (m) => (m === 0 ? 0 : 1)) as (0 | 1)[];
  const kl = sample.kl ? f32(sample.kl) : new Array<number>(sample.length).fill(0);
  if (settings.advantageEstimator === "reinforce_plus_plus") {
    return { length: sample.length, kl, lossMask, outcome: Math.fround(sample.reward) };
  }
  if (!sample.values) return "this sample has no critic values: ppo's GAE needs them";
  const rewards = kl.map((k) => Math.fround(-settings.klCoef * k));
  if (sample.length > 0) rewards[sample.length - 1] = Math.fround(rewards[sample.length - 1] + sample.reward);
  return {
    length: sample.length,
    rewards,
    values: f32(sample.values),
    kl,
    lossMask,
    outcome: Math.fround(sample.reward),
  };
}

/**
 * Samples of a dump as one playground batch, so their scans can be watched token by token (and
 * exported as pytest). The playground scans what slime's reinforce_plus_plus and ppo scan; the
 * other estimators broadcast a normalised reward, with no scan to watch: a sentence says so.
 * Advantages are never whitened here (the playground would whiten over its own rows, not slime's batch).
 */
export function samplesToPlayground(samples: SampleLanes[], settings: SlimeSettings): PlaygroundState | string {
  const estimator = settings.advantageEstimator;
  if (estimator !== "reinforce_plus_plus" && estimator !== "ppo")
    return `${estimator} gives every token the sample's normalised reward: there is no scan to watch`;
  const rows: PlaygroundRow[] = [];
  for (const sample of samples) {
    const row = sampleRow(sample, settings);
    if (typeof row === "string") return row;
    rows.push(row);
  }
  return {
    ...BASE_SETTINGS,
    gamma: settings.gamma,
    klCoef: settings.klCoef,
    chunkSize: 128,
    estimator: estimator === "ppo" ? "gae" : "reinforce_pp",
    lambd: estimator === "ppo" ? settings.lambd : BASE_SETTINGS.lambd,
    // The output slime's returns and the dump's stored returns both are (REINFORCE++ has no other).
    output: "returns",
    data: { source: "inline", rows },
  };
}

/** One sample, with where it came from and what slime stored for it (the playground's dump comparison lane). */
export function sampleToPlayground(
  sample: SampleLanes,
  settings: SlimeSettings,
  dump?: DumpComparison,
): PlaygroundState | string {
  const state = samplesToPlayground([sample], settings);
  if (typeof state === "string" || !dump) return state;
  return { ...state, dump: { ...dump, advantages: f32(dump.advantages), returns: f32(dump.returns) } };
}
