import * as tf from "@tensorflow/tfjs-core";
import { discountPowers, powersOf } from "../core";

/**
 * The constant matrices of the chunked scan, built on the host and uploaded once per run: they
 * are tiny next to the data (C×C and n×n), and building them with tensor ops would add
 * dispatches that differ between backends. Call inside the caller's tf.tidy.
 */
export interface DiscountKernels {
  /**
   * Upper-triangular Toeplitz kernel `M[i][j] = d^(j-i)`, j ≥ i (identity when d = 0): `[C, C]`,
   * or only its first `rows` rows when a single chunk is longer than the row (C > T), since the
   * other rows would multiply padding zeros. A chunk size far above T then costs T×C, not C².
   */
  toeplitz: tf.Tensor2D;
  /** `[C]` carry powers `d^(k+1)` (zeros when d = 0). */
  carryPowers: tf.Tensor1D;
}

export function discountKernels(discount: number, chunkSize: number, rows = chunkSize): DiscountKernels {
  // Core's float32 tables: the same powers (and the same d = 0 branch) as the host scan, so the
  // engine and core differ only in summation order, never in the constants.
  const { kernelRow, carryPowers } = discountPowers(discount, chunkSize, "float32");
  return kernelsOf(kernelRow as Float32Array, carryPowers as Float32Array, chunkSize, rows);
}

/**
 * The same kernels for a base that is not a float32 number: the second level of the two-level
 * scan uses `fl32(d)^C`, whose powers are taken in float64 and rounded once, like the first
 * level's, instead of rounding the base and compounding its error over every power.
 */
export function powerKernels(base: number, chunkSize: number): DiscountKernels {
  const { kernelRow, carryPowers } = powersOf(base, chunkSize, "float32");
  return kernelsOf(kernelRow as Float32Array, carryPowers as Float32Array, chunkSize, chunkSize);
}

function kernelsOf(
  kernelRow: Float32Array,
  carryPowers: Float32Array,
  chunkSize: number,
  rows: number,
): DiscountKernels {
  const m = new Float32Array(rows * chunkSize);
  for (let i = 0; i < rows; i++) {
    for (let j = i; j < chunkSize; j++) m[i * chunkSize + j] = kernelRow[j - i];
  }
  return {
    toeplitz: tf.tensor2d(m, [rows, chunkSize], "float32"),
    carryPowers: tf.tensor1d(carryPowers, "float32"),
  };
}

/**
 * `[n, n]` kernel of the second-level scan over chunk ends: `W[k][c] = (d^C)^(c-1-k)` for k < c
 * (`chunkBase` = d^C, computed in float64 from fl32(d)),
 * so `(ends @ W)[c] = Σ_{k<c} (d^C)^(c-1-k)·end_k` is the carry into chunk c. Row n-1 is zero:
 * the last chunk's end (possibly partial, read at column C-1) never feeds anything.
 *
 * Powers are taken in float64 from fl32(d) and rounded once, so a long gap costs one rounding
 * instead of a chain of float32 products. With d = 0 only `0^0 = 1` survives on the
 * superdiagonal: the carry is the previous chunk's end, which the zero carry powers then drop,
 * exactly as slime's s_prev does.
 */
export function chunkEndKernel(chunkBase: number, nChunks: number): tf.Tensor2D {
  const base = chunkBase;
  const w = new Float32Array(nChunks * nChunks);
  for (let k = 0; k < nChunks; k++) {
    for (let c = k + 1; c < nChunks; c++) w[k * nChunks + c] = base ** (c - 1 - k);
  }
  return tf.tensor2d(w, [nChunks, nChunks], "float32");
}
