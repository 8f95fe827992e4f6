import { ppoRewardIndices } from "./replayReference";
import type { RobustFit } from "./robustFit";
import type { ReplaySample } from "./settings";

/** The context-parallel sizes a run is likely to use. */
export const CP_CANDIDATES = [1, 2, 4, 8] as const;

export interface CpPlacementFit {
  cpSize: number;
  fit: RobustFit;
  /** Every CP size that fits as well (the same reward tokens, or rewards of zero where they differ). */
  tied: number[];
  /** Sizes not tried because a sample has no total length to lay it out with. */
  untried: number[];
}

/**
 * Under context parallelism slime's ppo adds the reward where CP rank 0's slice ends, not always
 * on the last token (ppoRewardIndices). Each size's placement is fitted; the one whose residuals
 * set fewest equations aside, then are smallest, wins (a misplaced reward leaves a residual of R / float32 rounding at two tokens).
 * Sizes that cannot lay out a sample are skipped: without a total length they are untried; where
 * rank 0 holds no response token slime raises, so the dump was not written with that size.
 */
export function inferPpoPlacement(samples: ReplaySample[], fitWith: (rewardAt: number[]) => RobustFit): CpPlacementFit {
  const tried: { cpSize: number; fit: RobustFit; key: string }[] = [];
  const untried: number[] = [];
  for (const cpSize of CP_CANDIDATES) {
    if (cpSize > 1 && samples.some((s) => s.totalLength === undefined)) {
      untried.push(cpSize);
      continue;
    }
    let rewardAt: number[];
    try {
      rewardAt = ppoRewardIndices(samples, cpSize);
    } catch {
      continue;
    }
    const key = rewardAt.join(",");
    const same = tried.find((t) => t.key === key);
    tried.push({ cpSize, fit: same ? same.fit : fitWith(rewardAt), key });
  }
  // A misplaced reward leaves two equations off the recursion: the robust fit sets them aside, so
  // the placement whose fit sets fewest aside wins, then the smallest χ².
  const leftOut = (t: (typeof tried)[number]) => t.fit.leftOut.length;
  const best = tried.reduce((a, b) =>
    leftOut(b) < leftOut(a) || (leftOut(b) === leftOut(a) && b.fit.chiSquare < a.fit.chiSquare) ? b : a,
  );
  // A misplaced reward adds (R/σ)² ≈ 10¹⁴·R² to χ²: twice the best plus a margin separates it.
  const tied = tried.filter(
    (t) => t.key === best.key || (leftOut(t) === leftOut(best) && t.fit.chiSquare <= 2 * best.fit.chiSquare + 100),
  );
  return { cpSize: best.cpSize, fit: best.fit, tied: tied.map((t) => t.cpSize), untried };
}
