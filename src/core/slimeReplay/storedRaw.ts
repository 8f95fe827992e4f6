import { UNIT_ROUNDOFF } from "../errorBound";
import { isBroadcastEstimator, type ReplaySample, type SlimeSettings } from "./settings";
import type { RawRows } from "./whitenFit";

/**
 * The float32 advantages slime whitened, as far as the dump's own numbers give them, with how far
 * each may be from that float32 value: slime whitens its own raw advantages, so the whitening is
 * checked against those, not against the float64 reference (whose distance from slime's raw values is
 * judged on its own, through the returns). Every estimator leaves them in the dump:
 * - reinforce_plus_plus: the returns are the raw advantages (one storage);
 * - ppo: `returns = advantages + values` in float32, so raw = returns − values within u·|returns|;
 * - grpo, gspo, cispo: the float32 reward on every token;
 * - reinforce_plus_plus_baseline: `R − β·kl` in float32 on the stored kl, within its two roundings.
 * Null when a field it needs is not stored. Each sample's row is computed when read: the batch's
 * rows are two float64 rows per sample (70 MB at 4.4 M tokens), and the fit reads them a row at a time.
 * A row is valid until the next is read: the fit reads every row six times, and two fresh float64
 * rows per read were 5.7 s of ppo512's 12 s in the page's worker (allocation and the GC it drives).
 */
export function storedRawRows(
  samples: ReplaySample[],
  storedReturns: ArrayLike<number>[],
  storedKl: (ArrayLike<number> | undefined)[],
  settings: SlimeSettings,
): RawRows | null {
  const estimator = settings.advantageEstimator;
  const klOf = (i: number) => storedKl[i] ?? samples[i].kl;
  for (let i = 0; i < samples.length; i++) {
    const R = samples[i].lossMask.length;
    if (storedReturns[i].length !== R) return null;
    if (estimator === "reinforce_plus_plus" || isBroadcastEstimator(estimator)) continue;
    const needed = estimator === "ppo" ? samples[i].values : klOf(i);
    if (!needed || needed.length !== R) return null;
  }
  let longest = 0;
  for (const s of samples) longest = Math.max(longest, s.lossMask.length);
  const raw = new Float64Array(longest);
  const errors = new Float64Array(longest);
  return {
    count: samples.length,
    row: (i) => rawRow(samples[i], storedReturns[i], klOf(i), settings, raw, errors),
  };
}

function rawRow(
  s: ReplaySample,
  returns: ArrayLike<number>,
  kl: ArrayLike<number> | undefined,
  settings: SlimeSettings,
  rawScratch: Float64Array,
  errorsScratch: Float64Array,
): { raw: Float64Array; errors: Float64Array } {
  const u = UNIT_ROUNDOFF.float32;
  const estimator = settings.advantageEstimator;
  const R = s.lossMask.length;
  const x = rawScratch.subarray(0, R);
  const e = errorsScratch.subarray(0, R);
  if (estimator === "reinforce_plus_plus" || isBroadcastEstimator(estimator)) e.fill(0);
  if (estimator === "reinforce_plus_plus") {
    x.set(returns);
  } else if (estimator === "ppo") {
    const values = s.values as ArrayLike<number>;
    for (let t = 0; t < R; t++) {
      x[t] = returns[t] - values[t];
      e[t] = u * Math.abs(returns[t]);
    }
  } else if (isBroadcastEstimator(estimator)) {
    x.fill(Math.fround(s.reward));
  } else {
    const stored = kl as ArrayLike<number>;
    const reward = Math.fround(s.reward);
    const beta = Math.fround(settings.klCoef);
    for (let t = 0; t < R; t++) {
      const penalty = beta * stored[t];
      x[t] = reward - penalty;
      e[t] = u * (Math.abs(reward) + 2 * Math.abs(penalty));
    }
  }
  return { raw: x, errors: e };
}
