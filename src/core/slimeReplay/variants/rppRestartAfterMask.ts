import { replayReference } from "../replayReference";
import type { KnownVariant } from "./knownVariant";
import { finishAdvantages, hasInnerMaskedToken, rppTokenRewards } from "./variantInputs";
import { restartingScan } from "./variantScans";

/**
 * verl before its PR #6376 (the same loop again in issue #7278, fixed by PR #7300): the REINFORCE++
 * reward-to-go was multiplied by the response mask after each step, so it restarted at every
 * mask-0 token. With slime's token rewards, [0, 0, 1] under mask [1, 0, 1] at γ = 0.5 gives
 * [0, 0.5, 1] instead of [0.5, 1, 1]: the action before the tool span loses the later reward.
 */
export const rppRestartAfterMask: KnownVariant = {
  id: "rpp_restart_after_mask",
  title: "REINFORCE++ with the reward-to-go restarting at tool tokens",
  source: "verl PR #6376",
  stage: "returns",
  applies: (samples, settings) =>
    settings.advantageEstimator === "reinforce_plus_plus" && settings.gamma !== 0 && hasInnerMaskedToken(samples),
  reference(samples, settings) {
    const { kl } = replayReference(samples, settings);
    const tokens = rppTokenRewards(kl, samples, settings.klCoef);
    const returns = tokens.map((tok, i) => restartingScan(samples[i].lossMask)(tok, settings.gamma));
    return { returns, advantages: finishAdvantages(returns, samples, settings) };
  },
};
