import { SUBNORMAL_STEP, UNIT_ROUNDOFF } from "../errorBound";
import { type RowArena, rowOf } from "./rowArena";

/**
 * How many roundings lie between one term and a float32 sum of N terms as torch computes it: a
 * pairwise tree above the leaves (⌈log₂ N⌉) and up to 64 sequential additions at them. torch's
 * CPU cascade sum accumulates 16 terms per level in vector lanes and a CUDA reduction has each
 * thread add a few strided terms before its tree; 64 covers both at dump sizes. A modelling
 * assumption, not a theorem about every torch build: a reduction that adds more terms one after
 * another can exceed it (docs/dumps.md).
 */
export function torchSumDepth(n: number): number {
  return Math.ceil(Math.log2(Math.max(2, n))) + 64;
}

/**
 * The two scalars slime's whitening shares over the whole batch, exact and with their float32
 * error bounds: `mean` and `rs = rsqrt(var + 1e-8)`. `conditioned` is false when the variance's
 * error can reach half of it: the float32 one-pass variance may then have cancelled (NeMo-RL #4158),
 * and nothing bounds rs.
 */
export interface WhitenBoundStats {
  /** Mask-1 tokens of the batch. */
  n: number;
  mean: number;
  /** The Bessel-corrected one-pass variance, exact (may be far below meanSquare: the cancellation). */
  variance: number;
  meanSquare: number;
  rs: number;
  /** Bound on |float32 mean − mean|. */
  dMean: number;
  /** Bound on |float32 rs − rs| / rs; Infinity when not conditioned. */
  rho: number;
  conditioned: boolean;
}

/**
 * slime's `distributed_masked_whiten` in float32, bounded: one-pass statistics `μ = Σa·m/N`,
 * `var = (Σa²·m/N − μ²)·N/(N−1)`, then `(a − μ)·rsqrt(var + 1e-8)`, each a float32 operation on
 * float32 sums. `advantages` are the float64 reference before whitening, `errors` their bounds.
 * First-order propagation:
 *   δμ  ≤ ΣE·m/N + (h+1)·u·Σ|a|·m/N;
 *   δm₂ ≤ Σ(2|a|E + E²)·m/N + (h+2)·u·Σa²·m/N;
 *   δvar ≤ δm₂ + 2|μ|δμ + δμ² + 2u·(m₂ + μ²), times the Bessel factor (and its 2u);
 *   δs (s = var + ε) adds u·s; rsqrt is then off by δs/(2(s − δs)) relative, plus 4u for itself.
 * When δs reaches s/2 the whitening is too ill-conditioned to bound.
 */
export function slimeWhitenStats(
  advantages: Float64Array[],
  errors: Float64Array[],
  masks: ArrayLike<number>[],
): WhitenBoundStats {
  return whitenStatsOf(addWhitenBoundSums(emptyWhitenBoundSums(), advantages, errors, masks));
}

/** slimeWhitenStats' sums over mask-1 tokens, carried from row to row (and from one window of rows to the next). */
export interface WhitenBoundSums {
  n: number;
  sum: number;
  sumAbs: number;
  sumSquares: number;
  sumErrors: number;
  sumCross: number;
}

export function emptyWhitenBoundSums(): WhitenBoundSums {
  return { n: 0, sum: 0, sumAbs: 0, sumSquares: 0, sumErrors: 0, sumCross: 0 };
}

/** Rows added to `sums` in place, in the order slimeWhitenStats adds them: windows in order give the same bits. */
export function addWhitenBoundSums(
  sums: WhitenBoundSums,
  advantages: Float64Array[],
  errors: Float64Array[],
  masks: ArrayLike<number>[],
): WhitenBoundSums {
  let { n, sum, sumAbs, sumSquares, sumErrors, sumCross } = sums;
  // Rows hoisted out of the token loop (4 M tokens); the sums run in the same order.
  for (let i = 0; i < advantages.length; i++) {
    const row = advantages[i];
    const mask = masks[i];
    const rowErrors = errors[i];
    for (let t = 0; t < row.length; t++) {
      if (mask[t] === 0) continue;
      const a = row[t];
      const e = rowErrors[t];
      n += 1;
      sum += a;
      sumAbs += Math.abs(a);
      sumSquares += a * a;
      sumErrors += e;
      sumCross += 2 * Math.abs(a) * e + e * e;
    }
  }
  Object.assign(sums, { n, sum, sumAbs, sumSquares, sumErrors, sumCross });
  return sums;
}

/** The whitening's scalars and their bounds from the batch's sums. */
export function whitenStatsOf(sums: WhitenBoundSums): WhitenBoundStats {
  const u = UNIT_ROUNDOFF.float32;
  const eta = SUBNORMAL_STEP.float32;
  const { n, sum, sumAbs, sumSquares, sumErrors, sumCross } = sums;
  const inf = Number.POSITIVE_INFINITY;
  if (n === 0) return { n, mean: 0, variance: 0, meanSquare: 0, rs: inf, dMean: inf, rho: inf, conditioned: false };
  const h = torchSumDepth(n);
  const mean = sum / n;
  const meanSquare = sumSquares / n;
  const bessel = n >= 2 ? n / (n - 1) : 1;
  const variance = (meanSquare - mean * mean) * bessel;
  const s = Math.max(0, variance) + 1e-8;
  const dMean = sumErrors / n + ((h + 1) * u * sumAbs) / n + eta;
  const dMeanSquare = sumCross / n + ((h + 2) * u * sumSquares) / n + eta;
  const dVariance =
    (dMeanSquare + 2 * Math.abs(mean) * dMean + dMean * dMean + 2 * u * (meanSquare + mean * mean)) * bessel;
  const dS = dVariance + 2 * u * bessel * Math.abs(variance) + u * s + eta;
  const conditioned = dS < s / 2;
  const rho = conditioned ? dS / (2 * (s - dS)) + 4 * u : inf;
  return { n, mean, variance, meanSquare, rs: 1 / Math.sqrt(s), dMean, rho, conditioned };
}

/**
 * Per-element bounds after slime's float32 whitening: out_t = (a_t − μ)·rs is off by
 * (E_t + δμ)·rs·(1 + ρ) + |a_t − μ|·rs·ρ + 2u·|out_t|. Infinite everywhere when the whitening is
 * not conditioned (slimeWhitenStats).
 */
export function slimeWhitenBounds(
  advantages: Float64Array[],
  errors: Float64Array[],
  masks: ArrayLike<number>[],
  stats: WhitenBoundStats = slimeWhitenStats(advantages, errors, masks),
  /** Where the rows are taken from, when they are dropped with the window (RowArena). */
  arena?: RowArena,
): Float64Array[] {
  const u = UNIT_ROUNDOFF.float32;
  const eta = SUBNORMAL_STEP.float32;
  const { mean, rs, dMean, rho } = stats;
  if (!stats.conditioned) return errors.map((row) => row.map(() => Number.POSITIVE_INFINITY));
  return advantages.map((row, i) => {
    const bound = rowOf(arena, row.length);
    const rowErrors = errors[i];
    for (let t = 0; t < row.length; t++) {
      const centred = Math.abs(row[t] - mean);
      const out = centred * rs;
      bound[t] = (rowErrors[t] + dMean) * rs * (1 + rho) + centred * rs * rho + 2 * u * (out + dMean * rs) + eta;
    }
    return bound;
  });
}
