import { klErrorBoundOf, klOf } from "./klReplay";
import { KL_LOSS_TYPES, type KlLossType } from "./settings";

/** What a sample holds for reading its KL's formula off: the stored KL and the log-probs it may come from. */
export interface KlInputs {
  kl?: ArrayLike<number>;
  logProbs?: ArrayLike<number>;
  refLogProbs?: ArrayLike<number>;
  rolloutLogProbs?: ArrayLike<number>;
}

export interface KlSource {
  type: KlLossType;
  /** `--use-rollout-logprobs`: the KL comes from the rollout engine's log-probs. */
  rollout: boolean;
  /** The other formulas and sources that reproduce the stored KL as well (k3 and low_var_kl agree below the clamp). */
  alike: { type: KlLossType; rollout: boolean }[];
}

/**
 * A formula reproduces the stored float32 KL when every value is within torch's float32 error of
 * it (klErrorBound, the replay's own bound), with a margin for the bound's own approximations.
 * A fixed relative tolerance would let k1 pass for k2 where the KL is 1e-16.
 */
const KL_MATCH = 2;

/**
 * Which of `compute_approx_kl`'s formulas, on the actor's or the rollout engine's log-probs,
 * reproduces the stored KL (the first in k1, k2, k3, low_var_kl order, actor first; null when none
 * does or nothing can be compared).
 */
export function klSourceOf(samples: KlInputs[]): KlSource | null {
  const fits: { type: KlLossType; rollout: boolean; gap: number }[] = [];
  const tried: KlTrial[] = [];
  for (const rollout of [false, true])
    for (const type of KL_LOSS_TYPES) tried.push({ type, rollout, gap: 0, any: false });
  klGaps(samples, tried);
  for (const { type, rollout, gap } of tried) if (gap < KL_MATCH) fits.push({ type, rollout, gap });
  if (fits.length === 0) return null;
  const best = fits.reduce((a, b) => (b.gap < a.gap ? b : a));
  const alike = fits.filter((f) => f !== best).map(({ type, rollout }) => ({ type, rollout }));
  return { type: best.type, rollout: best.rollout, alike };
}

/** One formula on one source of log-probs: its running gap, and whether any token was compared. */
interface KlTrial {
  type: KlLossType;
  rollout: boolean;
  gap: number;
  any: boolean;
}

/**
 * Each trial's largest gap between the stored kl and the formula on the chosen log-probs, in units
 * of float32's error (Infinity when none can be compared), in `gap`. A formula is dropped at its
 * first sample past KL_MATCH: the wrong ones cost one sample, not the whole batch. Every formula
 * still in is tried on a sample in the same visit, so the batch is read once however many formulas
 * reproduce it (k3 and low_var_kl below the clamp read it twice, one formula at a time), each
 * formula's running gap carried over the samples in order as before.
 */
function klGaps(samples: KlInputs[], trials: KlTrial[]): void {
  let open = trials.length;
  for (const s of samples) {
    if (open === 0) break;
    const kl = s.kl;
    if (!kl || !s.refLogProbs) continue;
    for (const trial of trials) {
      if (trial.gap >= KL_MATCH) continue;
      const logProbs = trial.rollout ? s.rolloutLogProbs : s.logProbs;
      if (!logProbs) continue;
      if (logProbs.length !== kl.length || s.refLogProbs.length !== kl.length) continue;
      const row = klGapRow(kl, logProbs, s.refLogProbs, trial.type, trial.gap);
      if (row.any) trial.any = true;
      trial.gap = row.gap;
      if (trial.gap >= KL_MATCH) open--;
    }
  }
  for (const trial of trials) if (trial.gap < KL_MATCH && !trial.any) trial.gap = Number.POSITIVE_INFINITY;
}

const rowGap = { gap: 0, any: false };

/**
 * One sample's pass, the running gap carried in: a function of one row is compiled once for every
 * sample, where the loop inline was compiled on the fly (OSR) and thrown away at each formula.
 */
function klGapRow(
  stored: ArrayLike<number>,
  logProbs: ArrayLike<number>,
  refLogProbs: ArrayLike<number>,
  type: KlLossType,
  from: number,
): { gap: number; any: boolean } {
  // A number for certain (+): the running maximum then stays a float64 in the compiled loop, where
  // seeded from the argument as it came it was a fresh heap number per token (71 MB over ppo512's batch).
  let gap = +from;
  let any = false;
  for (let t = 0; t < stored.length; t++) {
    const x = logProbs[t] - refLogProbs[t];
    const kl = klOf(x, type);
    if (!Number.isFinite(kl) || !Number.isFinite(stored[t])) continue;
    gap = Math.max(gap, Math.abs(kl - stored[t]) / klErrorBoundOf(x, type));
    any = true;
  }
  rowGap.gap = gap;
  rowGap.any = any;
  return rowGap;
}
