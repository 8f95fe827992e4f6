import * as tf from "@tensorflow/tfjs-core";
import { discountPowers, powersOf } from "../core";
import { hostKernelCache } from "./kernelCache";

/**
 * The constant matrices of the chunked scan, built on the host and uploaded once per run: they
 * are tiny next to the data (C×C and n×n), and building them with tensor ops would add
 * dispatches that differ between backends. The host arrays are remembered per (discount, C, rows)
 * (kernelCache.ts), so a repeated run only uploads them. Call inside the caller's tf.tidy.
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

type KernelArrays = { toeplitz: Float32Array; carryPowers: Float32Array };

export function discountKernels(discount: number, chunkSize: number, rows = chunkSize): DiscountKernels {
  return tensorsOf(discountKernelArrays(discount, chunkSize, rows), chunkSize, rows);
}

/** The host arrays of discountKernels (remembered, so never written to): `[rows, C]` row-major and `[C]`. */
export function discountKernelArrays(discount: number, chunkSize: number, rows = chunkSize): KernelArrays {
  return hostKernelCache.get(`discount ${discount} C ${chunkSize} rows ${rows}`, () => {
    // Core's float32 tables: the same powers (and the same d = 0 branch) as the host scan, so the
    // engine and core differ only in summation order, never in the constants.
    const { kernelRow, carryPowers, kernelPatches } = discountPowers(discount, chunkSize, "float32");
    const arrays = arraysOf(kernelRow as Float32Array, carryPowers as Float32Array, chunkSize, rows);
    // torch's M is not Toeplitz where its scalar loop rounded an entry differently (core/torchPow).
    for (const { row, col, value } of kernelPatches ?? [])
      if (row < rows) arrays.toeplitz[row * chunkSize + col] = value;
    return arrays;
  });
}

/**
 * The same kernels for a base that is not a float32 number: the second level of the two-level
 * scan uses `fl32(d)^C`, whose powers are taken in float64 and rounded once, like the first
 * level's, instead of rounding the base and compounding its error over every power.
 */
export function powerKernels(base: number, chunkSize: number): DiscountKernels {
  const arrays = hostKernelCache.get(`base ${base} C ${chunkSize}`, () => {
    const { kernelRow, carryPowers } = powersOf(base, chunkSize, "float32");
    return arraysOf(kernelRow as Float32Array, carryPowers as Float32Array, chunkSize, chunkSize);
  });
  return tensorsOf(arrays, chunkSize, chunkSize);
}

function arraysOf(kernelRow: Float32Array, carryPowers: Float32Array, chunkSize: number, rows: number): KernelArrays {
  const m = new Float32Array(rows * chunkSize);
  // Row i is kernelRow shifted right by i: one copy per row.
  for (let i = 0; i < rows; i++) m.set(kernelRow.subarray(0, chunkSize - i), i * chunkSize + i);
  return { toeplitz: m, carryPowers };
}

function tensorsOf(arrays: KernelArrays, chunkSize: number, rows: number): DiscountKernels {
  return {
    toeplitz: tf.tensor2d(arrays.toeplitz, [rows, chunkSize], "float32"),
    carryPowers: tf.tensor1d(arrays.carryPowers, "float32"),
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
 * exactly as slime's s_prev does. The matrix is Toeplitz: its n − 1 distinct powers are taken
 * once and copied along the rows (n² powers cost 0.65 s at n = 1024).
 */
export function chunkEndKernel(chunkBase: number, nChunks: number): tf.Tensor2D {
  const w = hostKernelCache.get(`chunk ends ${chunkBase} n ${nChunks}`, () => chunkEndArray(chunkBase, nChunks));
  return tf.tensor2d(w, [nChunks, nChunks], "float32");
}

/**
 * The distinct entries of chunkEndKernel, `[n]`: `powers[j] = (d^C)^j` (the last one unused), so
 * `W[k][c] = powers[c−1−k]`. The webgpu carries kernel (fused/chunkCarries.ts) takes these instead
 * of the n² matrix.
 */
export function chunkEndPowers(chunkBase: number, nChunks: number): tf.Tensor1D {
  const powers = hostKernelCache.get(`chunk end powers ${chunkBase} n ${nChunks}`, () =>
    chunkEndPowerArray(chunkBase, nChunks),
  );
  return tf.tensor1d(powers, "float32");
}

function chunkEndPowerArray(chunkBase: number, nChunks: number): Float32Array {
  const powers = new Float32Array(nChunks);
  for (let j = 0; j < nChunks; j++) powers[j] = chunkBase ** j;
  return powers;
}

/** The values of chunkEndKernel, row-major. */
export function chunkEndArray(chunkBase: number, nChunks: number): Float32Array {
  const powers = chunkEndPowerArray(chunkBase, Math.max(0, nChunks - 1));
  const w = new Float32Array(nChunks * nChunks);
  for (let k = 0; k + 1 < nChunks; k++) w.set(powers.subarray(0, nChunks - 1 - k), k * nChunks + k + 1);
  return w;
}
