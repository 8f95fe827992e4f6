import { chunkedDiscountedReturns } from "./chunkedScan";
import { discountPowers } from "./discountPowers";
import { allowingNonFinite, checkChunkSize, checkDiscount } from "./validation";

/**
 * One row's chunked returns split into what its own chunk sums and what the later chunks carry in
 * (ALGORITHM.md §b.1, step 6): with chunk c holding token t at reversed position k = (T−1−t) mod C,
 *
 *   G_t = local_t + d^(k+1)·s_c,   local_t = Σ_{u=t}^{end of t's chunk} d^(u−t)·x_u,
 *
 * s_c being the return at the first token after the chunk (the carry into it, 0 for the chunk that
 * holds the last tokens). Arrays are in original time.
 */
export interface CarrySplit {
  /** The chunk's own zero-carry scan at each token (the GEMM's column, slime's order). */
  local: Float64Array;
  /** `d^(k+1)·s_c`: the part of the return that comes from the chunks after t's, rounded once. */
  carried: Float64Array;
  /** `local + carried`, rounded once: the float64 chunked scan's return, bit for bit. */
  total: Float64Array;
  /** The carry s_c into each chunk, in slime's numbering (chunk 0 holds the last C tokens). */
  carriesIn: Float64Array;
  /** `d^(k+1)`, k = 0 … C−1: the power that scales the carry at position k of a chunk. */
  carryPowers: Float64Array;
  chunkSize: number;
}

/**
 * The split of one row's returns, computed by core's chunked scan in float64 on the row as it is
 * scanned (`scanned`: the rewards, REINFORCE++'s token rewards or GAE's TD residuals, right-padded
 * to the batch's length so the chunks fall where the batch's do). Pure float64 so that the split is
 * the algorithm's and not float32's: `local + carried` is `total` exactly, and `total` is within the
 * float64 chunked bound (errorBound.ts, precision float64, algorithm chunked) of the serial loop.
 *
 * Non-finite inputs are split as slime's scan spreads them (§b.4): a NaN or ±∞ poisons its chunk's
 * local sums and reaches the earlier chunks through the carry. Work is O(T·min(C, T)/2), the local
 * scans' multiply-adds, for this one row.
 */
export function carrySplit(scanned: ArrayLike<number>, discount: number, chunkSize: number): CarrySplit {
  checkDiscount(discount);
  checkChunkSize(chunkSize);
  const T = scanned.length;
  const data = Float64Array.from(scanned);
  const powTables = discountPowers(discount, chunkSize, "float64");
  const carryPowers = Float64Array.from(powTables.carryPowers);
  const { returns, trace } = allowingNonFinite(() =>
    chunkedDiscountedReturns({ rows: 1, cols: T, data }, discount, { chunkSize, powTables }),
  );
  const local = new Float64Array(T);
  const carried = new Float64Array(T);
  const carriesIn = Float64Array.from(trace.carriesIn);
  for (let i = 0; i < T; i++) {
    const t = T - 1 - i;
    const c = Math.floor(i / chunkSize);
    local[t] = trace.localScans[i];
    // The scan's own product (`s_prev * pow_vec[k]`), before its add: the same rounding.
    carried[t] = carriesIn[c] * carryPowers[i - c * chunkSize];
  }
  return { local, carried, total: Float64Array.from(returns.data), carriesIn, carryPowers, chunkSize };
}

/** Where token t of a row of `length` tokens sits: its chunk (slime's numbering) and k + 1, the carry's power. */
export function carryPlace(length: number, chunkSize: number, t: number): { chunk: number; exponent: number } {
  const i = length - 1 - t;
  return { chunk: Math.floor(i / chunkSize), exponent: (i % chunkSize) + 1 };
}
