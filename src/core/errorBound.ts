import type { Precision } from "./batch";

/**
 * A per-element bound on the rounding error of a discounted scan, `|computed − exact| ≤ bound[t]`,
 * derived from the operations the algorithm performs (docs/ERROR_BOUND.md has the derivation).
 * Every verdict in Scanlab holds each output to its own bound, so a small output is never judged
 * by the scale of a large one.
 */

/** Unit roundoff u: the largest relative error of one correctly rounded operation. */
export const UNIT_ROUNDOFF: Record<Precision, number> = { float32: 2 ** -24, float64: 2 ** -53 };

/** The spacing of subnormal numbers: below the normal range errors are absolute, not relative. */
export const SUBNORMAL_STEP: Record<Precision, number> = { float32: 2 ** -149, float64: 2 ** -1074 };

/**
 * How far a power table entry `d^k` may be from `fl(d)^k` correctly rounded, in ulps. torch's float32
 * pow is measured 1 ulp off for a few powers (ALGORITHM.md §b.2); a file's tables are checked
 * against the same rule.
 */
export const POWER_ULPS = 2;

/** How an implementation combines its chunks, which sets how many roundings lie on each path. */
export type ScanAlgorithm =
  /** slime's scan: local scans of C tokens, then each chunk's carry from the previous one. */
  | "chunked"
  /** local scans, then every chunk's carry summed at once from all earlier chunk ends. */
  | "two-level"
  /** the serial loop `G = r + d·G`, one token at a time (a chunked scan with C = 1). */
  | "serial";

export interface ScanRounding {
  precision: Precision;
  algorithm: ScanAlgorithm;
  /** The chunk size of the local scans (ignored for the serial loop). */
  chunkSize: number;
  /**
   * Roundings already in each input magnitude before the scan (input conversion, TD residuals,
   * token rewards): each adds `u·|x|` to the input and so `u·A_t` to the output.
   */
  inputRoundings: number;
}

export interface ScanBoundRow {
  /** Upper bounds of |x_t| for the scanned sequence, in original time. */
  magnitudes: ArrayLike<number>;
  /**
   * Tokens where the running value is carried through unchanged instead of being discounted
   * (verl's GAE skips observation tokens): 1 there, 0 elsewhere. Default: discounted everywhere.
   */
  carriedThrough?: ArrayLike<number>;
}

/**
 * The bound for one row scanned with discount `discount` (the exact float64 value the reference
 * uses). In reversed time i = T−1−t the scan is `S_i = x_i + d·S_{i−1}`; with `A_i` the same scan
 * over |x| and the largest of |d| and |fl(d)|:
 *
 *   bound_i = u·[(k_in + C + p + s)·A_i + (p + 2)·K_i] + |d − fl(d)|·D_i + η·(R_i + 3(i + 2)) + u₆₄·(A_i + 2·W_i)
 *
 * - C: additions in a local scan (min(C, T); 1 for the serial loop), p = POWER_ULPS, s: the carries
 *   summed at once by the two-level scan (min(nChunks, 1024) + p + 2, else 0);
 * - K_i: A along the carry chain (A_i plus each earlier chunk end's A, discounted to i): each carry
 *   multiplies and adds once more (2 roundings + the carry power's p);
 * - D_i = Σ k·d^(k−1)·|x_{i−k}|, the first-order effect of computing with fl(d) instead of d;
 * - η·(…): underflow, where errors are absolute: R_i = Σ_{l≤i} |x_l| for powers that fall below the
 *   normal range, and a half step for each rounding on the path;
 * - u₆₄·(A + 2W): the float64 serial reference's own error (W = K with C = 1).
 */
export function scanErrorBound(
  row: ScanBoundRow,
  discount: number,
  rounding: ScanRounding,
  /**
   * The length the row is scanned at when it is right-padded with zeros to a batch's longest
   * (slime's chunks align to that); the bound is returned for the row's own tokens.
   */
  scanLength = row.magnitudes.length,
  /**
   * Where to write it (every element is written): a caller bounding row after row of a batch
   * writes each into its place, no row-sized array made and dropped per row.
   */
  bound: Float64Array = new Float64Array(row.magnitudes.length),
): Float64Array {
  const { magnitudes, carriedThrough } = row;
  const L = magnitudes.length;
  const T = Math.max(scanLength, L);
  if (L === 0) return bound;
  const { precision, algorithm, inputRoundings } = rounding;
  const u = UNIT_ROUNDOFF[precision];
  const eta = SUBNORMAL_STEP[precision];
  const rounded = precision === "float32" ? Math.fround(discount) : discount;
  const d = Math.max(Math.abs(discount), Math.abs(rounded));
  const discountError = Math.abs(discount - rounded);
  // discount 0 is slime's identity branch: no powers, no carries, G = x exactly.
  if (discount === 0) {
    for (let t = 0; t < L; t++) bound[t] = inputRoundings * u * Math.abs(magnitudes[t]) + eta;
    return bound;
  }
  const C = algorithm === "serial" ? 1 : Math.max(1, Math.min(rounding.chunkSize, T));
  const nChunks = Math.ceil(T / C);
  const summed = algorithm === "two-level" ? Math.min(nChunks, 1024) + POWER_ULPS + 2 : 0;
  const localCoefficient = inputRoundings + C + POWER_ULPS + summed;
  const carryCoefficient = POWER_ULPS + 2;

  let A = 0; // Σ d^(i−l)·|x_l|
  let D = 0; // Σ (i−l)·d^(i−l−1)·|x_l|
  let R = 0; // Σ |x_l|
  let W = 0; // Σ d^(i−l)·A_l: the serial loop's carry chain
  let chainAtChunkEnd = 0; // K at the last element of the previous chunk
  let chainFactor = 1; // the discount from that chunk end to position i
  // The padding comes first in reversed time: its zeros leave A, D, R, W and K at 0, so the scan
  // starts after it, at its chunk position (i counts from the padded start), with no padded copy.
  for (let i = T - L; i < T; i++) {
    const t = T - 1 - i;
    const x = Math.abs(magnitudes[t]);
    const factor = carriedThrough?.[t] === 1 ? 1 : d;
    D = carriedThrough?.[t] === 1 ? D : A + factor * D;
    A = x + factor * A;
    R += x;
    W = A + factor * W;
    if (i % C === 0) chainFactor = 1;
    chainFactor *= factor;
    const K = A + chainFactor * chainAtChunkEnd;
    if (i % C === C - 1) chainAtChunkEnd = K;
    // Each product is scaled by u before the sum: near the top of the float64 range (1e308) a
    // coefficient times A would overflow where the bound itself is a small fraction of A.
    const reference = UNIT_ROUNDOFF.float64 * A + 2 * UNIT_ROUNDOFF.float64 * W;
    bound[t] =
      localCoefficient * u * A + carryCoefficient * u * K + discountError * D + eta * (R + 3 * (i + 2)) + reference;
  }
  return bound;
}
