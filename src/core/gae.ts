import { type Batch, type FloatArray, roundingOf, zerosLike } from "./batch";
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
 */
export function tdResiduals<A extends FloatArray>(rewards: Batch<A>, values: Batch<A>, gamma: number): Batch<A> {
  checkDiscount(gamma, "gamma");
  checkFiniteBatch(rewards, "rewards");
  checkFiniteBatch(values, "values");
  checkSameShape(rewards, "rewards", values, "values");
  const round = roundingOf(rewards.data);
  const g = round(gamma);
  const { rows, cols } = rewards;
  const r = rewards.data;
  const v = values.data;
  const out = zerosLike(r, rows * cols);
  for (let b = 0; b < rows; b++) residualRow(out, r, v, b * cols, cols, g, round);
  const deltas = { rows, cols, data: out };
  // Finite inputs can still overflow float32 here; name the residual, not the rewards.
  checkFiniteBatch(deltas, "TD residuals (r + γ·V_next − V)");
  return deltas;
}

/**
 * One row of δ_t = r_t + γ·V_{t+1} − V_t (V_T = 0), each operation rounded: a per-row function, not
 * an inner loop (see README, "Inner loops").
 */
function residualRow<A extends FloatArray>(
  out: A,
  r: A,
  v: A,
  start: number,
  cols: number,
  g: number,
  round: (x: number) => number,
): void {
  for (let t = 0; t < cols; t++) {
    const i = start + t;
    const next = t + 1 < cols ? v[i + 1] : 0;
    out[i] = round(round(r[i] + round(g * next)) - v[i]);
  }
}

/** slime's `vanilla_gae`: the serial loop `A_t = δ_t + (γλ)·A_{t+1}`, with γλ one float64 product. */
export function vanillaGae<A extends FloatArray>(
  rewards: Batch<A>,
  values: Batch<A>,
  gamma: number,
  lambd: number,
): GaeResult<A> {
  checkDiscount(lambd, "lambd");
  checkDiscount(gamma * lambd);
  const deltas = tdResiduals(rewards, values, gamma);
  const advantages = serialDiscountedReturns(deltas, gamma * lambd);
  return { advantages, returns: addValues(advantages, values), deltas };
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
  const deltas = tdResiduals(rewards, values, gamma);
  const { returns: advantages, trace } = chunkedDiscountedReturns(deltas, gamma * lambd, options);
  return { advantages, returns: addValues(advantages, values), deltas, trace };
}

function addValues<A extends FloatArray>(advantages: Batch<A>, values: Batch<A>): Batch<A> {
  const round = roundingOf(advantages.data);
  const out = zerosLike(advantages.data, advantages.data.length);
  for (let i = 0; i < out.length; i++) out[i] = round(advantages.data[i] + values.data[i]);
  return { rows: advantages.rows, cols: advantages.cols, data: out };
}
