import { replayReference } from "../replayReference";
import type { KnownVariant } from "./knownVariant";
import { finishAdvantages, hasMaskedToken, rppTokenRewards } from "./variantInputs";
import { serialScan } from "./variantScans";

/**
 * slime before PR #1372 (issue #1370): `get_reinforce_plus_plus_returns` built the token rewards as
 * `−kl_coef · kl` without the loss mask, so the KL of tool / observation tokens entered the
 * discounted returns, of those tokens and of every trainable token before them.
 */
export const rppKlUnmasked: KnownVariant = {
  id: "rpp_kl_unmasked",
  title: "REINFORCE++ with the KL not masked at tool tokens",
  source: "slime PR #1372",
  stage: "returns",
  applies: (samples, settings) =>
    settings.advantageEstimator === "reinforce_plus_plus" && settings.klCoef !== 0 && hasMaskedToken(samples),
  reference(samples, settings) {
    const { kl } = replayReference(samples, settings);
    const tokens = rppTokenRewards(kl, samples, settings.klCoef, false);
    const returns = tokens.map((tok) => serialScan(tok, settings.gamma));
    return { returns, advantages: finishAdvantages(returns, samples, settings) };
  },
};
