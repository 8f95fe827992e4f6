import { UNIT_ROUNDOFF } from "../errorBound";
import { isBroadcastEstimator, type ReplaySample, type SlimeSettings } from "./settings";

/**
 * The float32 advantages slime whitened, as far as the dump's own numbers give them, with how far
 * each may be from that float32 value: slime whitens its own raw advantages, so the whitening is
 * checked against those, not against the float64 reference (whose distance from slime's raw values is
 * judged on its own, through the returns). Every estimator leaves them in the dump:
 * - reinforce_plus_plus: the returns are the raw advantages (one storage);
 * - ppo: `returns = advantages + values` in float32, so raw = returns − values within u·|returns|;
 * - grpo, gspo, cispo: the float32 reward on every token;
 * - reinforce_plus_plus_baseline: `R − β·kl` in float32 on the stored kl, within its two roundings.
 * Null when a field it needs is not stored.
 */
export function storedRawAdvantages(
  samples: ReplaySample[],
  storedReturns: ArrayLike<number>[],
  storedKl: (ArrayLike<number> | undefined)[],
  settings: SlimeSettings,
): { raw: Float64Array[]; errors: Float64Array[] } | null {
  const u = UNIT_ROUNDOFF.float32;
  const estimator = settings.advantageEstimator;
  const raw: Float64Array[] = [];
  const errors: Float64Array[] = [];
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i];
    const R = s.lossMask.length;
    const x = new Float64Array(R);
    const e = new Float64Array(R);
    const returns = storedReturns[i];
    if (returns.length !== R) return null;
    if (estimator === "reinforce_plus_plus") {
      x.set(returns);
    } else if (estimator === "ppo") {
      const values = s.values;
      if (!values || values.length !== R) return null;
      for (let t = 0; t < R; t++) {
        x[t] = returns[t] - values[t];
        e[t] = u * Math.abs(returns[t]);
      }
    } else if (isBroadcastEstimator(estimator)) {
      x.fill(Math.fround(s.reward));
    } else {
      const kl = storedKl[i] ?? s.kl;
      if (!kl || kl.length !== R) return null;
      const reward = Math.fround(s.reward);
      const beta = Math.fround(settings.klCoef);
      for (let t = 0; t < R; t++) {
        const penalty = beta * kl[t];
        x[t] = reward - penalty;
        e[t] = u * (Math.abs(reward) + 2 * Math.abs(penalty));
      }
    }
    raw.push(x);
    errors.push(e);
  }
  return { raw, errors };
}
