import type { FloatArray } from "../../batch";
import { ppoRewardIndices, replayReference } from "../replayReference";
import type { KnownVariant } from "./knownVariant";
import { finishAdvantages, lastTrainable, ppoTokenRewards } from "./variantInputs";
import { gaeRow, serialScan } from "./variantScans";

/**
 * ppo with the outcome reward on the last mask-1 token instead of the last response token: the
 * placement half of miles PR #1827 (whose thread shows slime's way losing the reward entirely at
 * γ = 0 when the response ends in a tool span). Everything else stays slime's: KL on every token,
 * GAE over every token. Changes only samples whose reward lands elsewhere under slime.
 */
export const ppoRewardLastTrainable: KnownVariant = {
  id: "ppo_reward_last_trainable",
  title: "ppo with the reward on the last trainable token",
  source: "miles PR #1827",
  stage: "returns",
  applies(samples, settings) {
    if (settings.advantageEstimator !== "ppo" || samples.some((s) => !s.values)) return false;
    try {
      const at = ppoRewardIndices(samples, settings.contextParallelSize);
      return samples.some((s, i) => lastTrainable(s.lossMask) >= 0 && lastTrainable(s.lossMask) !== at[i]);
    } catch {
      return false;
    }
  },
  reference(samples, settings) {
    const { kl } = replayReference(samples, settings);
    const at = samples.map((s) => lastTrainable(s.lossMask));
    const tokens = ppoTokenRewards(kl, samples, settings.klCoef, at);
    const gae = tokens.map((tok, i) =>
      gaeRow(tok, samples[i].values as FloatArray, settings.gamma, settings.lambd, serialScan),
    );
    const raw = gae.map((g) => g.advantages);
    return { returns: gae.map((g) => g.returns), advantages: finishAdvantages(raw, samples, settings) };
  },
};
