import { replayReference } from "../replayReference";
import { isBroadcastEstimator } from "../settings";
import type { KnownVariant } from "./knownVariant";
import { finishAdvantages } from "./variantInputs";

/**
 * slime issue #397 (open): grpo, gspo and cispo ignore kl_coef; the closed fixes #399 and #1247
 * would have made the returns `R − kl_coef·kl` on every token (KL not masked), advantages the same.
 * slime's maintainers chose a KL loss instead, so a dump with these numbers came from a patched slime.
 */
export const grpoKlApplied: KnownVariant = {
  id: "grpo_kl_applied",
  title: "grpo with kl_coef applied to the reward (R − kl_coef·kl)",
  source: "slime issue #397",
  stage: "advantages",
  applies: (_samples, settings) => isBroadcastEstimator(settings.advantageEstimator) && settings.klCoef !== 0,
  reference(samples, settings) {
    const { kl } = replayReference(samples, settings);
    const returns = kl.map((k, i) => k.map((x) => samples[i].reward - settings.klCoef * x));
    return { returns, advantages: finishAdvantages(returns, samples, settings) };
  },
};
