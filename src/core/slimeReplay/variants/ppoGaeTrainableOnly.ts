import type { FloatArray } from "../../batch";
import { replayReference } from "../replayReference";
import type { KnownVariant } from "./knownVariant";
import { finishAdvantages, hasMaskedToken } from "./variantInputs";
import { gaeRow, serialScan } from "./variantScans";

/**
 * miles PR #1827 as merged: GAE runs on the subsequence of mask-1 tokens only. Masked tokens carry
 * no reward and no KL shaping, add no value delta and no γλ step; the reward goes on the last
 * trainable token; advantages and returns are 0 at masked tokens (a fully masked sample is all 0).
 * A dump written by miles after that PR looks like this.
 */
export const ppoGaeTrainableOnly: KnownVariant = {
  id: "ppo_gae_trainable_only",
  title: "ppo with GAE over the trainable tokens only",
  source: "miles PR #1827",
  stage: "returns",
  applies: (samples, settings) =>
    settings.advantageEstimator === "ppo" && samples.every((s) => s.values) && hasMaskedToken(samples),
  reference(samples, settings) {
    const { kl } = replayReference(samples, settings);
    const advantages: Float64Array[] = [];
    const returns: Float64Array[] = [];
    samples.forEach((s, i) => {
      const R = s.lossMask.length;
      const keep: number[] = [];
      for (let t = 0; t < R; t++) if (s.lossMask[t] === 1) keep.push(t);
      const values = s.values as FloatArray;
      const tok = Float64Array.from(keep, (t) => kl[i][t] * -settings.klCoef);
      if (keep.length > 0) tok[keep.length - 1] += s.reward;
      const packedValues = Float64Array.from(keep, (t) => values[t]);
      const gae = gaeRow(tok, packedValues, settings.gamma, settings.lambd, serialScan);
      const a = new Float64Array(R);
      const g = new Float64Array(R);
      keep.forEach((t, j) => {
        a[t] = gae.advantages[j];
        g[t] = gae.returns[j];
      });
      advantages.push(a);
      returns.push(g);
    });
    return { returns, advantages: finishAdvantages(advantages, samples, settings) };
  },
};
