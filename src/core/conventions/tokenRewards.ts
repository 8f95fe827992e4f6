import { type FloatArray, roundingOf, zerosLike } from "../batch";
import { ScanInputError } from "../validation";
import type { ConventionBatch, ConventionParams, Library } from "./types";

export interface TokenRewards<A extends FloatArray> {
  tokenLevelRewards: A[];
  rewardIndex: number[];
}

/** Last index with mask 1, or −1. */
export function lastUnmasked(mask: ArrayLike<number>): number {
  for (let t = mask.length - 1; t >= 0; t--) if (mask[t] === 1) return t;
  return -1;
}

/**
 * Where each library puts the KL penalty and the outcome reward (ALGORITHM.md §e, cases README):
 * - slime REINFORCE++: `−β·(kl·m)`, reward at the last m = 1 token (none: AssertionError);
 * - slime GAE ("ppo"): `kl·(−β)` on every token, reward on the last token;
 * - OpenRLHF: `−β'·kl` on every token (β' = max(β, 0)), clipped reward at the last m = 1 token,
 *   or at the last column of the padded batch when a row has none;
 * - verl: `s − β·(kl·m)` with the reward as the score of the last token.
 */
export function conventionTokenRewards<A extends FloatArray>(
  library: Library,
  estimator: "reinforce_pp" | "gae",
  batch: ConventionBatch<A>,
  params: ConventionParams,
): TokenRewards<A> {
  const paddedLength = batch.kl.reduce((max, row) => Math.max(max, row.length), 0);
  const rewardIndex: number[] = [];
  const tokenLevelRewards = batch.kl.map((kl, i) => {
    const mask = batch.lossMasks[i];
    const round = roundingOf(kl);
    const reward = round(batch.rewards[i]);
    const tok = zerosLike(kl, kl.length);
    const L = kl.length;
    let index: number;
    if (library === "slime") {
      const coef = round(-params.klCoef);
      if (estimator === "reinforce_pp") {
        index = lastUnmasked(mask);
        if (index < 0) throw new ScanInputError(`Sequence at index ${i} is fully masked.`, "AssertionError");
        for (let t = 0; t < L; t++) tok[t] = round(coef * (kl[t] * mask[t]));
      } else {
        index = L - 1;
        for (let t = 0; t < L; t++) tok[t] = round(kl[t] * coef);
      }
      if (index >= 0) tok[index] = round(tok[index] + reward);
    } else if (library === "openrlhf") {
      const coef = round(-Math.max(params.klCoef, 0));
      const range = params.rewardClipRange;
      const clipped = range ? Math.min(Math.max(reward, round(range[0])), round(range[1])) : reward;
      const last = lastUnmasked(mask);
      index = last >= 0 ? last : paddedLength - 1 < L ? paddedLength - 1 : -1;
      for (let t = 0; t < L; t++) tok[t] = round((t === index ? clipped : 0) + round(coef * kl[t]));
    } else {
      const beta = round(params.klCoef);
      index = L - 1;
      for (let t = 0; t < L; t++) tok[t] = round((t === index ? reward : 0) - round(beta * (kl[t] * mask[t])));
    }
    rewardIndex.push(index);
    return tok;
  });
  return { tokenLevelRewards, rewardIndex };
}
