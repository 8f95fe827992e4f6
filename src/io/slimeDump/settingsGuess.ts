import { approxKl, KL_LOSS_TYPES, type KlLossType, type SlimeSettings } from "../../core";
import type { DumpSample } from "./dumpTypes";

/**
 * What a train dump decides about its run: values present → the ppo estimator (only it loads a
 * critic); a stored KL of zeros → kl_coef 0 (slime makes zeros when kl_coef is 0); otherwise the
 * KL formula whose float64 value is closest to the stored `kl`, when the log-probs are there.
 * Everything else (γ, λ, kl_coef, normalisation) the dump does not record.
 */
export function guessSettings(samples: DumpSample[]): Partial<SlimeSettings> {
  const guess: Partial<SlimeSettings> = {};
  if (samples.length > 0 && samples.every((s) => s.values !== undefined)) guess.advantageEstimator = "ppo";
  const withKl = samples.filter((s) => s.kl);
  if (withKl.length > 0 && withKl.every((s) => (s.kl as Float64Array).every((x) => x === 0))) guess.klCoef = 0;
  const klType = guessKlType(samples);
  if (klType) guess.klLossType = klType;
  return guess;
}

function guessKlType(samples: DumpSample[]): KlLossType | null {
  let best: KlLossType | null = null;
  let bestGap = Number.POSITIVE_INFINITY;
  for (const type of KL_LOSS_TYPES) {
    let gap = 0;
    let any = false;
    for (const s of samples) {
      if (!s.kl || !s.logProbs || !s.refLogProbs) continue;
      const kl = approxKl(s.logProbs, s.refLogProbs, type);
      for (let t = 0; t < kl.length; t++) {
        gap = Math.max(gap, Math.abs(kl[t] - s.kl[t]) / (1 + Math.abs(kl[t])));
        any = true;
      }
    }
    // A formula that reproduces the stored KL does so to float32 rounding.
    if (any && gap < bestGap && gap < 1e-5) {
      bestGap = gap;
      best = type;
    }
  }
  return best;
}
