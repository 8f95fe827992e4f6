import { approxKl, KL_LOSS_TYPES, type KlLossType, type SlimeSettings } from "../../core";
import type { DumpSample } from "./dumpTypes";

/**
 * What a train dump decides about its run: values present → the ppo estimator (only it loads a
 * critic); a stored KL of zeros → kl_coef 0 (slime makes zeros when kl_coef is 0); otherwise the
 * KL formula, and which log-probs it was taken from (the actor's or, with
 * `--use-rollout-logprobs`, the rollout engine's), that reproduce the stored `kl`.
 * Everything else (γ, λ, kl_coef, normalisation) the dump does not record.
 */
export function guessSettings(samples: DumpSample[]): Partial<SlimeSettings> {
  const guess: Partial<SlimeSettings> = {};
  if (samples.length > 0 && samples.every((s) => s.values !== undefined)) guess.advantageEstimator = "ppo";
  const withKl = samples.filter((s) => s.kl);
  if (withKl.length > 0 && withKl.every((s) => (s.kl as Float64Array).every((x) => x === 0))) {
    guess.klCoef = 0;
    return guess;
  }
  const source = guessKlSource(samples);
  if (source) {
    guess.klLossType = source.type;
    if (source.rollout) guess.useRolloutLogprobs = true;
  }
  return guess;
}

function guessKlSource(samples: DumpSample[]): { type: KlLossType; rollout: boolean } | null {
  let best: { type: KlLossType; rollout: boolean } | null = null;
  let bestGap = Number.POSITIVE_INFINITY;
  for (const rollout of [false, true]) {
    for (const type of KL_LOSS_TYPES) {
      const gap = klGap(samples, type, rollout);
      // A formula that reproduces the stored KL does so to float32 rounding.
      if (gap < bestGap && gap < 1e-5) {
        bestGap = gap;
        best = { type, rollout };
      }
    }
  }
  return best;
}

/** The largest relative gap between the stored kl and the formula on the chosen log-probs (Infinity when none can be compared). */
function klGap(samples: DumpSample[], type: KlLossType, rollout: boolean): number {
  let gap = 0;
  let any = false;
  for (const s of samples) {
    const logProbs = rollout ? s.rolloutLogProbs : s.logProbs;
    if (!s.kl || !logProbs || !s.refLogProbs) continue;
    const kl = approxKl(logProbs, s.refLogProbs, type);
    for (let t = 0; t < kl.length; t++) {
      gap = Math.max(gap, Math.abs(kl[t] - s.kl[t]) / (1 + Math.abs(kl[t])));
      any = true;
    }
  }
  return any ? gap : Number.POSITIVE_INFINITY;
}
