import { type EquationSet, type LeastSquaresFit, ratiosAt, solveLeastSquares } from "./leastSquares";

/** A fit that may have set some equations aside as not following the recursion. */
export interface RobustFit extends LeastSquaresFit {
  /** Tags of the equations left out (equationTag), empty when every equation was kept. */
  leftOut: number[];
}

/** A fit of the kept equations, with every equation's residual (set-aside ones included) at its θ. */
export interface KeptFit {
  fit: LeastSquaresFit;
  /** residual / σ of each equation of the whole set at the fit's θ, by tag; null when θ is incomplete. */
  all: { tags: Float64Array; ratios: Float64Array } | null;
}

/**
 * An equation whose residual is this many times its float32 noise scale is not rounding: a
 * rounding error is a few units of its scale (a correct dump's worst is below 5 on every fixture
 * in cases/dumps, twins included), while a bug that changes a stored value leaves 10³–10⁸ (a
 * dropped chunk carry where the discount has already shrunk it: 4·10³; a restart after a mask or
 * a reward on the wrong token: 10⁶ and more).
 */
export const OUTLIER_RATIO = 1e3;

/**
 * At most this share of the equations is set aside: the recursion must hold on most of them for
 * its unknowns to mean anything. A dump that departs more widely is read as it is (untrimmed), and
 * its fit's χ² says it does not fit.
 */
const MAX_LEFT_OUT_SHARE = 0.2;

/** Rounds of setting aside (or taking back) and refitting before settling. */
const MAX_ROUNDS = 16;

/** Tokens per sample in a tag: a response is far shorter than 10⁷ tokens. */
const TAG_STRIDE = 1e7;

/** A (sample, token) equation's tag, the sample being its index in the fitted list. */
export function equationTag(sample: number, token: number): number {
  return sample * TAG_STRIDE + token;
}

export function tagSample(tag: number): number {
  return Math.floor(tag / TAG_STRIDE);
}

/** The equations of `set` less those excluded, solved, with every equation's residual at that θ. */
export function solveKept(set: EquationSet, excluded: ReadonlySet<number>): KeptFit {
  const fit = solveLeastSquares(set.without(excluded));
  if (excluded.size === 0) return { fit, all: { tags: fit.tags, ratios: fit.ratios } };
  const ratios = ratiosAt(set, fit.theta);
  return { fit, all: ratios ? { tags: set.tags, ratios } : null };
}

/**
 * A least-squares fit robust to a minority of departing equations (a trimmed fit). After each fit,
 * the equations whose residual is beyond OUTLIER_RATIO of their noise scale and within a factor 10
 * of the worst are set aside and the rest refitted, until none is beyond. Only the worst decade
 * goes each round because the first fit is pulled by the departures: good equations then show
 * large residuals too, only smaller than those of the departures that pulled it. Some still go
 * with them, so once the kept equations fit, every equation set aside that the new fit reproduces
 * (within OUTLIER_RATIO) is taken back and the fit redone: what stays out is what departs from
 * the fit of the rest. The result's covariance, χ² and worst case are those of the kept equations
 * alone, so its uncertainty is the one they support. When more than MAX_LEFT_OUT_SHARE would go,
 * the untrimmed fit is returned: a wide departure is not a minority to set aside.
 */
export function robustFit(solve: (excluded: ReadonlySet<number>) => KeptFit): RobustFit {
  const excluded = new Set<number>();
  const all = solve(excluded).fit;
  let fit = all;
  let allRatios: KeptFit["all"] = null;
  let settled: RobustFit | null = null;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if (!(fit.worstRatio > OUTLIER_RATIO)) {
      settled = { ...fit, leftOut: [...excluded].sort((a, b) => a - b) };
      const back = takeBack(excluded, allRatios);
      if (back.length === 0) return settled;
      for (const tag of back) excluded.delete(tag);
    } else {
      const cut = Math.max(OUTLIER_RATIO, fit.worstRatio / 10);
      fit.ratios.forEach((r, e) => {
        if (Math.abs(r) > cut) excluded.add(fit.tags[e]);
      });
      if (excluded.size > MAX_LEFT_OUT_SHARE * all.equations) break;
    }
    const next = solve(excluded);
    fit = next.fit;
    allRatios = next.all;
  }
  return settled ?? { ...all, leftOut: [] };
}

/** The set-aside equations the fit of the kept ones reproduces. */
function takeBack(excluded: ReadonlySet<number>, all: KeptFit["all"]): number[] {
  if (!all || excluded.size === 0) return [];
  const back: number[] = [];
  all.tags.forEach((tag, e) => {
    if (excluded.has(tag) && Math.abs(all.ratios[e]) <= OUTLIER_RATIO) back.push(tag);
  });
  return back;
}
