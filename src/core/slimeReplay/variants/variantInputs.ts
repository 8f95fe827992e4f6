import { lastUnmasked } from "../../conventions/tokenRewards";
import { whitenAdvantages } from "../../conventions/whiten";
import type { ReplaySample, SlimeSettings } from "../settings";

/**
 * What every variant builds on, the way slime builds it: its token rewards, its advantage
 * normalisation, and each data-parallel rank's padded length. Float64 throughout.
 */

/** Last index with mask 1, or −1. */
export const lastTrainable = lastUnmasked;

/**
 * REINFORCE++ token rewards: `−β·kl` (times the mask unless `maskKl` is false, the state before
 * slime PR #1372), the reward added at the last mask-1 token.
 */
export function rppTokenRewards(
  kl: Float64Array[],
  samples: ReplaySample[],
  klCoef: number,
  maskKl = true,
): Float64Array[] {
  return kl.map((k, i) => {
    const mask = samples[i].lossMask;
    const tok = k.map((x, t) => -klCoef * (maskKl ? x * mask[t] : x));
    const last = lastTrainable(mask);
    if (last >= 0) tok[last] += samples[i].reward;
    return tok;
  });
}

/** ppo token rewards: `kl·(−β)` on every token (not masked), the reward added at `rewardAt[i]`. */
export function ppoTokenRewards(
  kl: Float64Array[],
  samples: ReplaySample[],
  klCoef: number,
  rewardAt: number[],
): Float64Array[] {
  return kl.map((k, i) => {
    const tok = k.map((x) => x * -klCoef);
    if (tok.length > 0 && rewardAt[i] >= 0) tok[rewardAt[i]] += samples[i].reward;
    return tok;
  });
}

/** `--normalize-advantages` the way replayReference applies it, so a variant's advantages compare with slime's. */
export function finishAdvantages(
  raw: Float64Array[],
  samples: ReplaySample[],
  settings: SlimeSettings,
): Float64Array[] {
  if (!settings.normalizeAdvantages) return raw;
  return whitenAdvantages(
    "slime",
    raw,
    samples.map((s) => s.lossMask),
  );
}

/**
 * The length each sample was right-padded to for the batched scan: the longest response of its
 * data-parallel rank (one rank when ranks are not known). Chunk boundaries follow it.
 */
export function paddedLengths(samples: ReplaySample[]): number[] {
  const longest = new Map<number, number>();
  for (const s of samples) {
    const rank = s.dataParallelRank ?? 0;
    longest.set(rank, Math.max(longest.get(rank) ?? 0, s.lossMask.length));
  }
  return samples.map((s) => longest.get(s.dataParallelRank ?? 0) ?? s.lossMask.length);
}

/** Whether any sample has a mask-0 token before its last mask-1 token (a tool span or a masked start). */
export function hasInnerMaskedToken(samples: ReplaySample[]): boolean {
  return samples.some((s) => {
    const last = lastTrainable(s.lossMask);
    for (let t = 0; t < last; t++) if (s.lossMask[t] === 0) return true;
    return false;
  });
}

export function hasMaskedToken(samples: ReplaySample[]): boolean {
  return samples.some((s) => Array.prototype.some.call(s.lossMask, (m: number) => m === 0));
}
