import { type ScanAlgorithm, scanErrorBound, serialDiscountedReturns } from "../../core";
import { normal, seededRandom } from "../../core/seededRandom";
import type { BenchSize } from "./benchPlan";

/** One size's inputs: N(0, 1) rewards rounded to float32, and the float64 serial reference on them. */
export interface SizeData {
  size: BenchSize;
  rewards: Float32Array;
  reference: Float64Array;
}

export function makeSizeData(size: BenchSize, seed: number, discount: number): SizeData {
  const random = seededRandom(seed);
  const n = size.rows * size.cols;
  const rewards = new Float32Array(n);
  for (let i = 0; i < n; i++) rewards[i] = normal(random);
  const exact = { rows: size.rows, cols: size.cols, data: Float64Array.from(rewards) };
  return { size, rewards, reference: serialDiscountedReturns(exact, discount).data };
}

/**
 * Each element's float32 error bound for an algorithm and chunk size (core's scanErrorBound,
 * row by row): the inputs are exact float32 values, so no input rounding.
 */
export function elementBounds(
  data: SizeData,
  discount: number,
  algorithm: ScanAlgorithm,
  chunkSize: number,
): Float64Array {
  const { rows, cols } = data.size;
  const out = new Float64Array(rows * cols);
  const rounding = { precision: "float32" as const, algorithm, chunkSize, inputRoundings: 0 };
  for (let b = 0; b < rows; b++) {
    const row = data.rewards.subarray(b * cols, (b + 1) * cols);
    out.set(scanErrorBound({ magnitudes: row.map(Math.abs) }, discount, rounding), b * cols);
  }
  return out;
}

/** A prefix of every row: the calibration input for a long per-token run. */
export function rowPrefixes(rewards: Float32Array, size: BenchSize, cols: number): Float32Array {
  const out = new Float32Array(size.rows * cols);
  for (let b = 0; b < size.rows; b++) out.set(rewards.subarray(b * size.cols, b * size.cols + cols), b * cols);
  return out;
}
