import type { FitSample } from "./estimatorFits";
import { approxKl } from "./klReplay";
import type { KlInputs } from "./klSource";
import type { RobustFit } from "./robustFit";
import { KL_LOSS_TYPES, type KlLossType } from "./settings";

export interface KlByFit {
  type: KlLossType;
  rollout: boolean;
  /** The fitted samples with that KL in place of the stored one. */
  used: FitSample[];
  fit: RobustFit;
  /** The other formulas and sources that fit as well. */
  alike: { type: KlLossType; rollout: boolean }[];
}

/**
 * The KL the run penalised with, read from the returns when the stored `kl` is not any formula's
 * (slime PR #2114 multiplied it in place by −kl_coef and added the reward, so the dump holds the
 * token reward instead): each formula's KL on the actor's and on the rollout engine's log-probs is
 * put in the estimator's equations (`fitWith`), and the one whose fit sets fewest equations aside,
 * then has the smallest χ², is taken. Only a formula that fits to float32 rounding (χ²/ν within
 * `fitLimit`) is: the returns then say which KL they were computed from, whatever the stored `kl`
 * holds. Null when no sample can be recomputed or nothing fits.
 */
export function klByFit(
  inputs: KlInputs[],
  used: FitSample[],
  fitWith: (used: FitSample[]) => RobustFit,
  quality: (fit: RobustFit) => number,
  fitLimit: number,
): KlByFit | null {
  const tried: KlByFit[] = [];
  for (const rollout of [false, true]) {
    for (const type of KL_LOSS_TYPES) {
      const kls = inputs.map((s, i) => {
        const logProbs = rollout ? s.rolloutLogProbs : s.logProbs;
        const R = used[i].returns.length;
        if (!logProbs || !s.refLogProbs || logProbs.length !== R || s.refLogProbs.length !== R) return null;
        return approxKl(logProbs, s.refLogProbs, type);
      });
      if (kls.some((k) => k === null)) continue;
      const withKl = used.map((f, i) => ({ ...f, kl: kls[i] as Float64Array }));
      tried.push({ type, rollout, used: withKl, fit: fitWith(withKl), alike: [] });
    }
  }
  const fitting = tried.filter((t) => quality(t.fit) <= fitLimit);
  if (fitting.length === 0) return null;
  const rank = (t: KlByFit) => [t.fit.leftOut.length, quality(t.fit)];
  const best = fitting.reduce((a, b) => {
    const [la, qa] = rank(a);
    const [lb, qb] = rank(b);
    return lb < la || (lb === la && qb < qa) ? b : a;
  });
  // k3 and low_var_kl agree below the clamp: a fit as good (twice the χ² and a margin) is alike.
  best.alike = fitting
    .filter((t) => t !== best && t.fit.leftOut.length === best.fit.leftOut.length)
    .filter((t) => quality(t.fit) <= 2 * quality(best.fit) + 1)
    .map(({ type, rollout }) => ({ type, rollout }));
  return best;
}
