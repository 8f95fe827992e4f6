import { type Batch, type FloatArray, roundingOf, type Zeros, zerosLike } from "./batch";
import { type ChunkedScanOptions, type ChunkTrace, chunkedDiscountedReturns } from "./chunkedScan";
import { serialDiscountedReturns } from "./serialScan";
import { checkDiscount, checkFiniteBatch, checkSameShape } from "./validation";

export interface GaeResult<A extends FloatArray = FloatArray> {
  advantages: Batch<A>;
  /** `advantages + values`: the critic's targets. */
  returns: Batch<A>;
  /** The TD residuals the scan ran over. */
  deltas: Batch<A>;
}

export interface ChunkedGaeResult<A extends FloatArray = FloatArray> extends GaeResult<A> {
  trace: ChunkTrace<A>;
}

/**
 * `δ_t = (r_t + γ·V_{t+1}) − V_t` with `V_T = 0`, evaluated in that order (ALGORITHM.md §c).
 * No mask: right padding with r = V = 0 is harmless because it comes after the real tokens.
 * The precision is the rewards' array type; the values are read as numbers (float32 ones widen exactly).
 */
export function tdResiduals<A extends FloatArray>(
  rewards: Batch<A>,
  values: Batch<FloatArray>,
  gamma: number,
  zeros: Zeros = zerosLike,
): Batch<A> {
  checkDiscount(gamma, "gamma");
  checkFiniteBatch(rewards, "rewards");
  checkFiniteBatch(values, "values");
  checkSameShape(rewards, "rewards", values, "values");
  const g = roundingOf(rewards.data)(gamma);
  const { rows, cols } = rewards;
  const r = rewards.data;
  const v = values.data;
  const out = zeros(r, rows * cols);
  const float32 = out instanceof Float32Array;
  for (let b = 0; b < rows; b++) {
    if (float32) residualRow32(out, r, v, b * cols, cols, g);
    else residualRow64(out, r, v, b * cols, cols, g);
  }
  const deltas = { rows, cols, data: out };
  // Finite inputs can still overflow float32 here; name the residual, not the rewards.
  checkFiniteBatch(deltas, "TD residuals (r + γ·V_next − V)");
  return deltas;
}

/**
 * One row of δ_t = r_t + γ·V_{t+1} − V_t (V_T = 0), each operation rounded to float32: a per-row
 * function, not an inner loop, and one per precision: a rounding passed as a function is a call per
 * operation that V8 does not inline (docs/design.md, "Inner loops").
 */
function residualRow32(out: FloatArray, r: FloatArray, v: FloatArray, start: number, cols: number, g: number): void {
  // The last token first: code after a loop that V8 compiled mid-loop had no type feedback, and
  // each row's call threw that code away (96 deoptimizations in 24 runs at 16 × 8192).
  if (cols <= 0) return;
  const end = start + cols - 1;
  out[end] = Math.fround(Math.fround(r[end] + Math.fround(g * 0)) - v[end]);
  for (let i = start; i < end; i++) out[i] = Math.fround(Math.fround(r[i] + Math.fround(g * v[i + 1])) - v[i]);
}

/** residualRow32 in float64: no rounding between the operations. */
function residualRow64(out: FloatArray, r: FloatArray, v: FloatArray, start: number, cols: number, g: number): void {
  if (cols <= 0) return;
  const end = start + cols - 1;
  out[end] = r[end] + g * 0 - v[end];
  for (let i = start; i < end; i++) out[i] = r[i] + g * v[i + 1] - v[i];
}

/** slime's `vanilla_gae`: the serial loop `A_t = δ_t + (γλ)·A_{t+1}`, with γλ one float64 product. */
export function vanillaGae<A extends FloatArray>(
  rewards: Batch<A>,
  values: Batch<FloatArray>,
  gamma: number,
  lambd: number,
  zeros: Zeros = zerosLike,
): GaeResult<A> {
  checkDiscount(lambd, "lambd");
  checkDiscount(gamma * lambd);
  const deltas = tdResiduals(rewards, values, gamma, zeros);
  const advantages = serialDiscountedReturns(deltas, gamma * lambd, zeros);
  return { advantages, returns: addValues(advantages, values, zeros), deltas };
}

/** slime's `chunked_gae`: the same residuals, scanned by `chunked_discounted_returns` with discount γλ. */
export function chunkedGae<A extends FloatArray>(
  rewards: Batch<A>,
  values: Batch<A>,
  gamma: number,
  lambd: number,
  options: ChunkedScanOptions = {},
): ChunkedGaeResult<A> {
  checkDiscount(lambd, "lambd");
  checkDiscount(gamma * lambd);
  const deltas = tdResiduals(rewards, values, gamma, options.zeros);
  const { returns: advantages, trace } = chunkedDiscountedReturns(deltas, gamma * lambd, options);
  return { advantages, returns: addValues(advantages, values, options.zeros), deltas, trace };
}

function addValues<A extends FloatArray>(
  advantages: Batch<A>,
  values: Batch<FloatArray>,
  zeros: Zeros = zerosLike,
): Batch<A> {
  const a = advantages.data;
  const v = values.data;
  const out = zeros(a, a.length);
  // Float32Array stores round to float32: the sum of two float32 values rounded once, as torch adds them.
  for (let i = 0; i < out.length; i++) out[i] = a[i] + v[i];
  return { rows: advantages.rows, cols: advantages.cols, data: out };
}
