import { type FloatArray, roundingOf, zerosLike } from "../batch";
import { ScanInputError } from "../validation";
import type { Library } from "./types";

/**
 * Advantage whitening over the whole batch, each library's formula (cases README):
 * - slime `distributed_masked_whiten`: one-pass variance `Σa²m/N − μ²`, Bessel when N ≥ 2,
 *   `(a − μ)·rsqrt(var + 1e-8)`; N = 0 raises;
 * - OpenRLHF: two-pass variance without Bessel, `(a − μ)·rsqrt(max(var, 1e-8))`;
 * - verl `masked_whiten`: means over `N + 1e-8`, two-pass variance with Bessel,
 *   `(a − μ)·rsqrt(var + 1e-8)`; N < 2 raises.
 * Every token is whitened, masked ones included. Statistics are summed in float64 and rounded
 * once, which keeps a float32 run at least as close to the truth as torch's float32 reductions.
 */
export function whitenAdvantages<A extends FloatArray>(
  library: Library,
  advantages: A[],
  masks: ArrayLike<number>[],
): A[] {
  const like = advantages[0];
  if (like === undefined) return [];
  const round = roundingOf(like);
  const { n, sum, sumSquares } = addWhitenSums(emptyWhitenSums(), advantages, masks);
  if (library === "slime") {
    const { mean, rstd } = slimeWhitenScalars({ n, sum, sumSquares }, round);
    return whitenRows(advantages, mean, rstd);
  }
  if (library === "verl" && n < 2) {
    throw new ScanInputError(`at least 2 valid tokens are needed to whiten advantages, got ${n}`);
  }
  const denominator = library === "verl" ? n + 1e-8 : n;
  const mean = round(sum / denominator);
  let centered = 0;
  advantages.forEach((row, i) => {
    for (let t = 0; t < row.length; t++) centered += (row[t] - mean) ** 2 * masks[i][t];
  });
  let variance = centered / denominator;
  if (library !== "openrlhf" && n >= 2) variance *= n / (n - 1);
  const scaled = library === "openrlhf" ? Math.max(variance, 1e-8) : variance + 1e-8;
  const rstd = round(1 / Math.sqrt(round(scaled)));
  return whitenRows(advantages, mean, rstd);
}

/** The whitening's batch sums: over mask-1 tokens, row by row (a later call carries them on, in the same order). */
export interface WhitenSums {
  n: number;
  sum: number;
  sumSquares: number;
}

export function emptyWhitenSums(): WhitenSums {
  return { n: 0, sum: 0, sumSquares: 0 };
}

/** `rows` added to `sums`, in place: rows given a window at a time sum to the same bits as the batch at once. */
export function addWhitenSums(sums: WhitenSums, rows: FloatArray[], masks: ArrayLike<number>[]): WhitenSums {
  let { n, sum, sumSquares } = sums;
  // A plain loop, not forEach: sums a closure writes are boxed, a fresh number per token.
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const mask = masks[i];
    for (let t = 0; t < row.length; t++) {
      n += mask[t];
      sum += row[t] * mask[t];
      sumSquares += row[t] * row[t] * mask[t];
    }
  }
  sums.n = n;
  sums.sum = sum;
  sums.sumSquares = sumSquares;
  return sums;
}

/** slime's mean and rsqrt(var + 1e-8) from the batch sums (one-pass variance, Bessel when N ≥ 2); N = 0 raises. */
export function slimeWhitenScalars(
  { n, sum, sumSquares }: WhitenSums,
  round: (x: number) => number,
): { mean: number; rstd: number } {
  if (n === 0) throw new ScanInputError("no valid tokens to whiten advantages over (N = 0)");
  const mean = round(sum / n);
  let variance = sumSquares / n - (sum / n) ** 2;
  if (n >= 2) variance *= n / (n - 1);
  return { mean, rstd: round(1 / Math.sqrt(round(variance + 1e-8))) };
}

/** Every token whitened with the batch's scalars, masked ones included. */
export function whitenRows<A extends FloatArray>(rows: A[], mean: number, rstd: number): A[] {
  return rows.map((row) => {
    const out = zerosLike(row, row.length);
    if (out instanceof Float32Array) whitenRow32(out, row, mean, rstd);
    else whitenRow64(out, row, mean, rstd);
    return out;
  });
}

/**
 * `(a − μ)·rstd` with both operations rounded to float32 (the store rounds the product): one
 * function per precision, as the rounding passed as a function was a call per operation.
 */
function whitenRow32(out: Float32Array, row: FloatArray, mean: number, rstd: number): void {
  for (let t = 0; t < row.length; t++) out[t] = Math.fround(row[t] - mean) * rstd;
}

export function whitenRow64(out: FloatArray, row: FloatArray, mean: number, rstd: number): void {
  for (let t = 0; t < row.length; t++) out[t] = (row[t] - mean) * rstd;
}
