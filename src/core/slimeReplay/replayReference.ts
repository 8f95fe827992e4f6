import { roundingOf } from "../batch";
import { cpLayout, cpLayoutProblem } from "../contextParallel/layout";
import { ppoRewardPlacement } from "../contextParallel/ppoByRank";
import {
  addWhitenSums,
  emptyWhitenSums,
  slimeWhitenScalars,
  whitenAdvantages,
  whitenRow64,
  whitenRows,
} from "../conventions/whiten";
import { vanillaGae } from "../gae";
import { tokenLevelRewards } from "../reinforcePP";
import { serialDiscountedReturns } from "../serialScan";
import { checkDiscount, ScanInputError } from "../validation";
import { tokensOf } from "./fieldLengths";
import { approxKl } from "./klReplay";
import { ppoReferenceRow } from "./ppoRows";
import { type RowArena, rowOf } from "./rowArena";
import { isBroadcastEstimator, type ReplaySample, type SlimeSettings } from "./settings";

/** What slime's `compute_advantages_and_returns` gives, recomputed in float64. */
export interface ReplayReference {
  advantages: Float64Array[];
  /** Never whitened. */
  returns: Float64Array[];
  /** The advantages before `--normalize-advantages` (equal to `advantages` without it). */
  rawAdvantages: Float64Array[];
  /** The per-token KL the estimator used: float64 from the log-probs when present. */
  kl: Float64Array[];
  /** Whether each sample's KL was recomputed from its log-probs (else taken from the dump's `kl`). */
  klRecomputed: boolean[];
}

/**
 * slime's `compute_advantages_and_returns` (loss.py) for every estimator, in float64 with serial
 * loops (the truth the chunked float32 run is judged against):
 * - KL: zeros when kl_coef is 0 or there are no log-probs, else `compute_approx_kl`;
 * - grpo, gspo, cispo: the (already group-normalised) reward on every token; returns = advantages;
 * - reinforce_plus_plus: `−β·(kl·m)`, the reward added at the last mask-1 token, discounted returns
 *   over all tokens (no reset at holes); advantages = returns;
 * - reinforce_plus_plus_baseline: `R − β·kl` on every token (KL not masked); returns = advantages;
 * - ppo: `kl·(−β)` on every token (not masked), the reward added at the last token whatever its
 *   mask, then GAE with the critic's values (V after the last token = 0); returns = A + V;
 * - `normalize_advantages`: masked whitening over the whole batch (distributed_masked_whiten,
 *   Bessel-corrected, shift_mean), applied to every token; returns untouched.
 */
export function replayReference(
  samples: ReplaySample[],
  settings: SlimeSettings,
  /** Where the KL and ppo's rows are taken from, when they are dropped with the window (RowArena). */
  arena?: RowArena,
): ReplayReference {
  const { advantageEstimator: estimator, gamma, lambd, klCoef } = settings;
  const klRecomputed: boolean[] = [];
  const kl = samples.map((s, i) => {
    const { row, recomputed } = klReference(s, i, settings, arena);
    klRecomputed.push(recomputed);
    return row;
  });
  const masks = samples.map((s) => s.lossMask);
  const rewards = samples.map((s) => s.reward);
  let returns: Float64Array[];
  let raw: Float64Array[];
  if (isBroadcastEstimator(estimator)) {
    returns = kl.map((k, i) => new Float64Array(k.length).fill(rewards[i]));
    raw = returns;
  } else if (estimator === "reinforce_plus_plus_baseline") {
    returns = kl.map((k, i) => k.map((x) => rewards[i] - klCoef * x));
    raw = returns;
  } else if (estimator === "reinforce_plus_plus") {
    const tokens = tokenLevelRewards({ rewards, kl, lossMasks: masks }, klCoef);
    returns = tokens.map((tok) => serialDiscountedReturns({ rows: 1, cols: tok.length, data: tok }, gamma).data);
    raw = returns;
  } else {
    raw = [];
    const rewardAt = ppoRewardIndices(samples, settings.contextParallelSize);
    returns = samples.map((s, i) => {
      const values = s.values;
      if (!values) throw new ScanInputError(`sample ${i} has no values: the ppo estimator needs the critic's`);
      checkLength(values, kl[i].length, i, "values");
      const L = kl[i].length;
      const row = kl[i];
      const fast =
        row instanceof Float64Array
          ? ppoReferenceRow(row, values, rewards[i], rewardAt[i], klCoef, gamma, lambd, arena)
          : null;
      if (fast) {
        // vanillaGae's checks of γ and λ, which the loop does not make.
        checkDiscount(lambd, "lambd");
        checkDiscount(gamma * lambd);
        checkDiscount(gamma, "gamma");
        raw.push(fast.advantages);
        return fast.returns;
      }
      const tokens = kl[i].map((x) => x * -klCoef);
      if (L > 0) tokens[rewardAt[i]] += rewards[i];
      const gae = vanillaGae({ rows: 1, cols: L, data: tokens }, { rows: 1, cols: L, data: values }, gamma, lambd);
      raw.push(gae.advantages.data);
      return gae.returns.data;
    });
  }
  const advantages = settings.normalizeAdvantages ? whitened(raw, masks, arena) : raw;
  return { advantages, returns, rawAdvantages: raw, kl, klRecomputed };
}

/**
 * One sample's KL as the reference uses it (replayReference): zeros when kl_coef is 0, else
 * `compute_approx_kl` in float64 from its log-probs, else the dump's `kl` widened. A token's KL
 * reads that token's inputs only, so a sample's row can be made again alone (the run view does,
 * rather than keep 35 MB of it at 4.4 M tokens).
 */
export function klReference(
  s: ReplaySample,
  i: number,
  settings: SlimeSettings,
  arena?: RowArena,
): { row: Float64Array; recomputed: boolean } {
  const R = tokensOf(s);
  const logProbs = settings.useRolloutLogprobs ? s.rolloutLogProbs : s.logProbs;
  if (settings.klCoef === 0) return { row: new Float64Array(R), recomputed: false };
  if (logProbs && s.refLogProbs) {
    checkLength(logProbs, R, i, settings.useRolloutLogprobs ? "rollout_log_probs" : "log_probs");
    checkLength(s.refLogProbs, R, i, "ref_log_probs");
    return { row: approxKl(logProbs, s.refLogProbs, settings.klLossType, rowOf(arena, R)), recomputed: true };
  }
  if (s.kl) return { row: widened(checkLength(s.kl, R, i, "kl"), arena), recomputed: false };
  throw new ScanInputError(
    `sample ${i} has no log_probs and ref_log_probs, nor kl, for a KL penalty (kl_coef ${settings.klCoef})`,
  );
}

/**
 * Where slime's ppo path adds each sample's reward: the last response token, or under context
 * parallelism the last element of CP rank 0's slice (ppoRewardPlacement). When rank 0 holds no
 * response token, slime's `token_level_rewards[-1]` raises IndexError.
 */
export function ppoRewardIndices(samples: ReplaySample[], cpSize: number): number[] {
  return samples.map((s, i) => {
    const R = tokensOf(s);
    if (cpSize === 1) return R - 1;
    if (s.totalLength === undefined)
      throw new ScanInputError(`sample ${i} has no total length for the context-parallel layout`);
    const problem = cpLayoutProblem(s.totalLength, R, cpSize);
    if (problem) throw new ScanInputError(`sample ${i}: ${problem}`);
    const { landsAt } = ppoRewardPlacement(cpLayout(s.totalLength, R, cpSize));
    if (landsAt === null) {
      throw new ScanInputError(
        `index -1 is out of bounds: sample ${i}'s CP rank 0 holds no response token`,
        "IndexError",
      );
    }
    return landsAt;
  });
}

/** slime's whitening of the raw advantages (whitenAdvantages), its float64 rows into `arena`'s: the same operations. */
function whitened(raw: Float64Array[], masks: ArrayLike<number>[], arena: RowArena | undefined): Float64Array[] {
  const like = raw[0];
  if (!arena || like === undefined) return whitenAdvantages("slime", raw, masks);
  const { mean, rstd } = slimeWhitenScalars(addWhitenSums(emptyWhitenSums(), raw, masks), roundingOf(like));
  return raw.map((row) => {
    if (!(row instanceof Float64Array)) return whitenRows([row], mean, rstd)[0];
    const out = arena.take(row.length);
    whitenRow64(out, row, mean, rstd);
    return out;
  });
}

/** A stored row in float64 (exactly), as it is when it is float64 already, else into `arena`'s row. */
function widened(row: ArrayLike<number>, arena: RowArena | undefined): Float64Array {
  if (row instanceof Float64Array) return row;
  const out = rowOf(arena, row.length);
  out.set(row);
  return out;
}

function checkLength<A extends ArrayLike<number>>(values: A, R: number, sample: number, name: string): A {
  if (values.length !== R) {
    throw new ScanInputError(`sample ${sample}: ${name} has ${values.length} tokens, its loss mask ${R}`);
  }
  return values;
}
