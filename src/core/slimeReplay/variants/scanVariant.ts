import type { FloatArray } from "../../batch";
import { ppoRewardIndices, replayReference } from "../replayReference";
import type { ReplaySample, SlimeSettings } from "../settings";
import type { VariantReference } from "./knownVariant";
import { finishAdvantages, ppoTokenRewards, rppTokenRewards } from "./variantInputs";
import { gaeRow, type RowScan } from "./variantScans";

/** The estimators whose returns come out of a discounted scan (REINFORCE++ with γ, ppo's GAE with γλ). */
export function isScanEstimator(settings: SlimeSettings): boolean {
  return settings.advantageEstimator === "reinforce_plus_plus" || settings.advantageEstimator === "ppo";
}

/** The scan's discount: γ for REINFORCE++, γλ for GAE. */
export function scanDiscount(settings: SlimeSettings): number {
  return settings.advantageEstimator === "ppo" ? settings.gamma * settings.lambd : settings.gamma;
}

/**
 * slime's REINFORCE++ or ppo with another scan in place of `chunked_discounted_returns` (sample
 * i's scan from `scanOf(i)`), everything else slime's; advantages normalised as slime would.
 * `round` is the working precision of the scan's inputs and of GAE's residuals and `A + V`
 * (identity: float64).
 */
export function withScan(
  samples: ReplaySample[],
  settings: SlimeSettings,
  scanOf: (i: number) => RowScan,
  round: (x: number) => number = (x) => x,
): VariantReference {
  const { kl } = replayReference(samples, settings);
  const { klCoef, gamma, lambd } = settings;
  if (settings.advantageEstimator === "ppo") {
    const tokens = ppoTokenRewards(kl, samples, klCoef, ppoRewardIndices(samples, settings.contextParallelSize));
    const gae = tokens.map((tok, i) => {
      const values = Float64Array.from(samples[i].values as FloatArray, round);
      return gaeRow(tok.map(round), values, gamma, lambd, scanOf(i), round);
    });
    const raw = gae.map((g) => g.advantages);
    return { returns: gae.map((g) => g.returns), advantages: finishAdvantages(raw, samples, settings) };
  }
  const tokens = rppTokenRewards(kl, samples, klCoef).map((tok) => tok.map(round));
  const returns = tokens.map((tok, i) => scanOf(i)(tok, gamma));
  return { returns, advantages: finishAdvantages(returns, samples, settings) };
}
