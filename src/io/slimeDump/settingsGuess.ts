import { klSourceOf, type SlimeSettings } from "../../core";
import type { DumpSample } from "./dumpTypes";

/**
 * What a train dump decides about its run: values present → the ppo estimator (only it loads a
 * critic); a stored KL of zeros → kl_coef 0 (slime makes zeros when kl_coef is 0); otherwise the
 * KL formula, and which log-probs it was taken from (the actor's or, with
 * `--use-rollout-logprobs`, the rollout engine's), that reproduce the stored `kl` (core's klSourceOf).
 * γ, λ, kl_coef and normalisation are read off the numbers by inferDumpSettings.
 */
export function guessSettings(samples: DumpSample[]): Partial<SlimeSettings> {
  const guess: Partial<SlimeSettings> = {};
  if (samples.length > 0 && samples.every((s) => s.values !== undefined)) guess.advantageEstimator = "ppo";
  const withKl = samples.filter((s) => s.kl);
  if (withKl.length > 0 && withKl.every((s) => (s.kl as Float64Array).every((x) => x === 0))) {
    guess.klCoef = 0;
    return guess;
  }
  const source = klSourceOf(samples);
  if (source) {
    guess.klLossType = source.type;
    if (source.rollout) guess.useRolloutLogprobs = true;
  }
  return guess;
}
