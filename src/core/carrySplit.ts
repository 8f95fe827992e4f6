import { discountPowers } from "./discountPowers";
import { checkChunkSize, checkDiscount } from "./validation";

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
  /** The chunk's own zero-carry scan at each token (the GEMM's column, in chunkedScan's float64 order). */
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
 * The split of one row's returns, computed as core's chunked scan computes them in float64 (same
 * order, same bits as chunkedDiscountedReturns on a Float64Array) on the row as it is scanned (`scanned`: the rewards, REINFORCE++'s token rewards or GAE's TD residuals, right-padded
 * to the batch's length so the chunks fall where the batch's do). Pure float64 so that the split is
 * the algorithm's and not float32's: `local + carried` is `total` exactly, and `total` is within the
 * float64 chunked bound (errorBound.ts, precision float64, algorithm chunked) of the serial loop.
 *
 * Non-finite inputs are split as slime's scan spreads them (§b.4): a NaN or ±∞ poisons its chunk's
 * local sums and reaches the earlier chunks through the carry. Work is O(T·min(C, T)/2), the local
 * scans' multiply-adds, for this one row (65536 tokens at C = 4096: 134 M). The local scans are chunkedScan's float64 GEMM column by
 * column, in its order (l = 0 … j, product then sum, a non-finite input making the columns before it
 * NaN); the carries follow chunk by chunk with the scan's two roundings. The same bits as
 * chunkedDiscountedReturns over the row (the tests hold it to that).
 */
export function carrySplit(scanned: ArrayLike<number>, discount: number, chunkSize: number): CarrySplit {
  checkDiscount(discount);
  checkChunkSize(chunkSize);
  const T = scanned.length;
  const C = chunkSize;
  // Reversed time, as the scan runs: x[i] is token T − 1 − i.
  const x = new Float64Array(T);
  for (let i = 0; i < T; i++) x[i] = scanned[T - 1 - i];
  const { kernelRow, carryPowers } = discountPowers(discount, C, "float64");
  const nChunks = Math.ceil(T / C);
  const local = new Float64Array(T);
  const carried = new Float64Array(T);
  const total = new Float64Array(T);
  const carriesIn = new Float64Array(nChunks);
  let carry = 0;
  for (let c = 0; c < nChunks; c++) {
    const start = c * C;
    const valid = Math.min(C, T - start);
    // The GEMM multiplies every input of the chunk by the kernel's zeros above the diagonal too: a
    // NaN or ±∞ there makes the columns before it NaN (0·∞ = NaN; ALGORITHM.md §b.4).
    let lastNonFinite = -1;
    for (let l = 0; l < valid; l++) if (!Number.isFinite(x[start + l])) lastNonFinite = l;
    carriesIn[c] = carry;
    for (let j = 0; j < valid; j++) {
      let acc = 0;
      for (let l = 0; l <= j; l++) acc = acc + x[start + l] * kernelRow[j - l];
      if (lastNonFinite > j) acc = Number.NaN;
      const t = T - 1 - (start + j);
      local[t] = acc;
      // The scan's own product (`s_prev * pow_vec[k]`), then its add: the same two roundings.
      carried[t] = carry * carryPowers[j];
      total[t] = acc + carried[t];
    }
    carry = total[T - 1 - (start + valid - 1)];
  }
  return { local, carried, total, carriesIn, carryPowers: Float64Array.from(carryPowers), chunkSize };
}

/** Where token t of a row of `length` tokens sits: its chunk (slime's numbering) and k + 1, the carry's power. */
export function carryPlace(length: number, chunkSize: number, t: number): { chunk: number; exponent: number } {
  const i = length - 1 - t;
  return { chunk: Math.floor(i / chunkSize), exponent: (i % chunkSize) + 1 };
}
