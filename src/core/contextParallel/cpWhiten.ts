import { type FloatArray, roundingOf, zerosLike } from "../batch";
import { sliceBack } from "./gather";
import type { CpLayout } from "./layout";
import { checkLayouts, ranksFirst } from "./reinforcePPByRank";

/** The masked sums a rank contributes to the whitening all-reduce (Σ m, Σ m·x, Σ m·x²). */
export interface MaskedSums {
  n: number;
  sum: number;
  sumSquares: number;
}

/** slime's `distributed_masked_whiten` statistics over some group of tokens. */
export interface WhitenStats extends MaskedSums {
  mean: number;
  /** One-pass variance Σm·x²/N − mean², times N/(N − 1) when N ≥ 2 (Bessel). */
  variance: number;
  /** 1 / √(variance + 1e-8). */
  rstd: number;
}

export function maskedSums(values: ArrayLike<number>[], masks: ArrayLike<number>[]): MaskedSums {
  let n = 0;
  let sum = 0;
  let sumSquares = 0;
  values.forEach((row, i) => {
    for (let t = 0; t < row.length; t++) {
      const m = masks[i][t];
      n += m;
      sum += row[t] * m;
      sumSquares += row[t] * row[t] * m;
    }
  });
  return { n, sum, sumSquares };
}

/** The all-reduce: the group's sums are the members' sums added up. */
export function addSums(parts: MaskedSums[]): MaskedSums {
  return parts.reduce((a, b) => ({ n: a.n + b.n, sum: a.sum + b.sum, sumSquares: a.sumSquares + b.sumSquares }), {
    n: 0,
    sum: 0,
    sumSquares: 0,
  });
}

/**
 * The statistics slime whitens with (the formula of core's `whitenAdvantages("slime", …)`); null
 * when the group holds no unmasked token, where slime raises a ValueError. Sums are kept in float64
 * and rounded once to the working precision.
 */
export function whitenStats(sums: MaskedSums, round: (x: number) => number): WhitenStats | null {
  const { n, sum, sumSquares } = sums;
  if (n === 0) return null;
  let variance = sumSquares / n - (sum / n) ** 2;
  if (n >= 2) variance *= n / (n - 1);
  const mean = round(sum / n);
  const rstd = round(1 / Math.sqrt(round(variance + 1e-8)));
  return { ...sums, mean, variance, rstd };
}

/** `(a − mean) · rstd` on every token, masked ones included. */
export function whitenWith<A extends FloatArray>(stats: WhitenStats, values: A): A {
  const round = roundingOf(values);
  const out = zerosLike(values, values.length);
  for (let t = 0; t < values.length; t++) out[t] = round(round(values[t] - stats.mean) * stats.rstd);
  return out;
}

export interface CpWhitenRun<A extends FloatArray = FloatArray> {
  /** [rank][sample]: each rank's advantages and loss mask (the full mask sliced at its indices). */
  localAdvantages: A[][];
  localMasks: A[][];
  /** Since slime PR #2235: statistics over the DP×CP group, the same on every rank. */
  group: { stats: WhitenStats | null; whitened: A[][] | null };
  /** Before it: each CP rank whitens with its own pieces' statistics ([rank]; null where N = 0). */
  perRank: { stats: (WhitenStats | null)[]; whitened: (A[] | null)[] };
}

/**
 * Advantage whitening under context parallelism, both ways. The samples given are one DP rank's;
 * the DP×CP group here is that rank's CP group (data-parallel replicas would only add their sums).
 */
export function cpWhiten<A extends FloatArray>(
  layouts: CpLayout[],
  advantages: A[],
  masks: ArrayLike<number>[],
): CpWhitenRun<A> {
  checkLayouts(layouts, advantages);
  checkLayouts(layouts, masks);
  const cpSize = layouts[0]?.cpSize ?? 1;
  const like = advantages[0] ?? (new Float64Array(0) as A);
  const round = roundingOf(like);
  const localAdvantages = ranksFirst(
    advantages.map((adv, i) => sliceBack(layouts[i], adv)),
    cpSize,
  );
  const localMasks = ranksFirst(
    masks.map((m, i) => sliceBack(layouts[i], arrayLike(like, m))),
    cpSize,
  );
  const rankSums = localAdvantages.map((rows, r) => maskedSums(rows, localMasks[r]));
  const groupStats = whitenStats(addSums(rankSums), round);
  const perRankStats = rankSums.map((sums) => whitenStats(sums, round));
  return {
    localAdvantages,
    localMasks,
    group: {
      stats: groupStats,
      whitened: groupStats ? localAdvantages.map((rows) => rows.map((adv) => whitenWith(groupStats, adv))) : null,
    },
    perRank: {
      stats: perRankStats,
      whitened: perRankStats.map((stats, r) =>
        stats ? localAdvantages[r].map((adv) => whitenWith(stats, adv)) : null,
      ),
    },
  };
}

function arrayLike<A extends FloatArray>(like: A, values: ArrayLike<number>): A {
  const out = zerosLike(like, values.length);
  out.set(values);
  return out;
}
