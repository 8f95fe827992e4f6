import { type FloatArray, roundingOf, zerosLike } from "../batch";
import type { ChunkedScanOptions } from "../chunkedScan";
import { checkDiscount, ScanInputError } from "../validation";
import { gatherIfSplit, reassemble, sliceBack } from "./gather";
import { type CpLayout, responseIndices } from "./layout";
import { checkLayouts, ranksFirst } from "./reinforcePPByRank";
import { gaeOverBatch } from "./scanByRank";

/** One PPO sample: per-token KL and critic values of the response, and its scalar outcome reward. */
export interface PpoSample<A extends FloatArray = FloatArray> {
  kl: A;
  values: A;
  reward: number;
}

/** Where slime's PPO path puts the outcome reward for a layout (CONTEXT_PARALLEL.md, "The PPO path"). */
export interface PpoPlacement {
  /** R − 1: where the reward belongs (and where cp_size 1 puts it). */
  lastToken: number;
  /** The response index of rank 0's last local element; null when rank 0 holds no response token. */
  landsAt: number | null;
  /** landsAt is the last response token. */
  correct: boolean;
}

/**
 * CP rank 0 adds the reward to the last element of its own local vector. That is the last response
 * token exactly when rank 0's second chunk reaches the response's last logit, (2n − 1)·c < T − 1.
 */
export function ppoRewardPlacement(layout: CpLayout): PpoPlacement {
  const lastToken = layout.responseLength - 1;
  const held = responseIndices(layout.ranks[0]);
  const landsAt = held.length > 0 ? held[held.length - 1] : null;
  return { lastToken, landsAt, correct: landsAt === lastToken };
}

/** PPO advantages under context parallelism, every step kept. */
export interface CpPpoRun<A extends FloatArray = FloatArray> {
  layouts: CpLayout[];
  placements: PpoPlacement[];
  /** [rank][sample]: −kl_coef·kl of the rank's pieces, plus the reward on rank 0's last element. */
  localRewards: A[][];
  /** [sample]: rewards and values after the gather (the same on every rank). */
  gatheredRewards: A[];
  gatheredValues: A[];
  /** [sample]: what `chunked_gae` computes over the whole response, on every rank. */
  advantages: A[];
  returns: A[];
  /** [rank][sample]: the advantages each rank keeps. */
  localAdvantages: A[][];
  /** [sample]: the ranks' advantages put back at their response indices. */
  reassembled: A[];
}

/** slime's message when rank 0 indexes `[-1]` of an empty local vector. */
const EMPTY_RANK0 = "index -1 is out of bounds for dimension 0 with size 0";

/**
 * slime's PPO path (`compute_advantages_and_returns`, then `get_advantages_and_returns_batch`) with
 * cp_size n, rank by rank: token rewards from each rank's local KL (not masked), the reward added by
 * rank 0 at its last local element, rewards and values gathered, `chunked_gae` over the padded
 * batch, and each rank's pieces sliced back. Where rank 0 holds no response token, slime's indexing
 * fails; so does this, with torch's IndexError.
 */
export function ppoGaeByRank<A extends FloatArray>(
  samples: PpoSample<A>[],
  layouts: CpLayout[],
  klCoef: number,
  gamma: number,
  lambd: number,
  options: ChunkedScanOptions = {},
): CpPpoRun<A> {
  checkDiscount(klCoef, "kl_coef");
  checkLayouts(
    layouts,
    samples.map((s) => s.kl),
  );
  checkLayouts(
    layouts,
    samples.map((s) => s.values),
  );
  const cpSize = layouts[0]?.cpSize ?? 1;
  const placements = layouts.map(ppoRewardPlacement);
  const rewardsBySample = samples.map((sample, i) => {
    const locals = sliceBack(layouts[i], sample.kl).map((kl) => penalty(kl, klCoef));
    const rank0 = locals[0];
    if (rank0.length === 0) throw new ScanInputError(EMPTY_RANK0, "IndexError");
    const round = roundingOf(rank0);
    rank0[rank0.length - 1] = round(rank0[rank0.length - 1] + round(sample.reward));
    return locals;
  });
  const valuesBySample = samples.map((sample, i) => sliceBack(layouts[i], sample.values));
  const gatheredRewards = layouts.map((layout, i) => gatherIfSplit(layout, rewardsBySample[i]));
  const gatheredValues = layouts.map((layout, i) => gatherIfSplit(layout, valuesBySample[i]));
  const { advantages, returns } = gaeOverBatch(gatheredRewards, gatheredValues, gamma, lambd, options);
  const localBySample = advantages.map((adv, i) => sliceBack(layouts[i], adv));
  return {
    layouts,
    placements,
    localRewards: ranksFirst(rewardsBySample, cpSize),
    gatheredRewards,
    gatheredValues,
    advantages,
    returns,
    localAdvantages: ranksFirst(localBySample, cpSize),
    reassembled: localBySample.map((locals, i) => reassemble(layouts[i], locals)),
  };
}

/** The same path with cp_size 1: no split, the reward on the last response token. */
export function ppoGaeCp1<A extends FloatArray>(
  samples: PpoSample<A>[],
  klCoef: number,
  gamma: number,
  lambd: number,
  options: ChunkedScanOptions = {},
): { rewards: A[]; advantages: A[]; returns: A[] } {
  checkDiscount(klCoef, "kl_coef");
  const rewards = samples.map((sample) => {
    const tok = penalty(sample.kl, klCoef);
    if (tok.length === 0) throw new ScanInputError(EMPTY_RANK0, "IndexError");
    const round = roundingOf(tok);
    tok[tok.length - 1] = round(tok[tok.length - 1] + round(sample.reward));
    return tok;
  });
  const values = samples.map((s) => s.values);
  return { rewards, ...gaeOverBatch(rewards, values, gamma, lambd, options) };
}

/** `kl * (−kl_coef)`: the PPO path does not mask the KL. */
function penalty<A extends FloatArray>(kl: A, klCoef: number): A {
  const round = roundingOf(kl);
  const coef = round(-klCoef);
  const out = zerosLike(kl, kl.length);
  for (let t = 0; t < kl.length; t++) out[t] = round(kl[t] * coef);
  return out;
}

/** How two vectors of the same length differ: tokens that differ and the largest absolute difference. */
export interface VectorDifference {
  differing: number;
  maxAbs: number;
  /** The token with the largest difference; null when none differ. */
  worst: number | null;
}

export function vectorDifference(a: ArrayLike<number>, b: ArrayLike<number>): VectorDifference {
  let differing = 0;
  let maxAbs = 0;
  let worst: number | null = null;
  for (let t = 0; t < a.length; t++) {
    if (a[t] === b[t] || (Number.isNaN(a[t]) && Number.isNaN(b[t]))) continue;
    differing++;
    const d = Math.abs(a[t] - b[t]);
    if (worst === null || d > maxAbs) {
      maxAbs = d;
      worst = t;
    }
  }
  return { differing, maxAbs, worst };
}

/**
 * The placement in words, for the command and the page: where slime's PPO path puts the outcome
 * reward for this layout and what that does to the advantages against cp_size 1.
 */
export function ppoPlacementNote(layout: CpLayout): string {
  const { lastToken, landsAt, correct } = ppoRewardPlacement(layout);
  if (correct) {
    return `rank 0's last local element is response token ${lastToken}, the last one: slime's PPO path adds the outcome reward where cp_size 1 does.`;
  }
  if (landsAt === null) {
    return `rank 0 holds no response token: slime's PPO path fails at token_level_rewards[-1] += reward (IndexError: ${EMPTY_RANK0}).`;
  }
  const moved = landsAt + 1 === lastToken ? `token ${lastToken} gets` : `tokens ${landsAt + 1}–${lastToken} get`;
  const early =
    landsAt === 0
      ? `token 0 gets it undiscounted instead of discounted over ${lastToken} steps`
      : `tokens 0–${landsAt} get it discounted over ${landsAt} − t steps instead of ${lastToken} − t`;
  return (
    `rank 0's last local element is response token ${landsAt}, not the last one (${lastToken}): slime's PPO path adds ` +
    `the outcome reward there, so ${moved} none of it in their advantages, and ${early} as with cp_size 1.`
  );
}
