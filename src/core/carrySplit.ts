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

/** Multiply-adds of local scan between two pause points of carrySplitSteps: a few ms. */
export const CARRY_SPLIT_STEP = 2 ** 18;

/**
 * The split of one row's returns, computed by core's chunked scan in float64 on the row as it is
 * scanned (`scanned`: the rewards, REINFORCE++'s token rewards or GAE's TD residuals, right-padded
 * to the batch's length so the chunks fall where the batch's do). Pure float64 so that the split is
 * the algorithm's and not float32's: `local + carried` is `total` exactly, and `total` is within the
 * float64 chunked bound (errorBound.ts, precision float64, algorithm chunked) of the serial loop.
 *
 * Non-finite inputs are split as slime's scan spreads them (§b.4): a NaN or ±∞ poisons its chunk's
 * local sums and reaches the earlier chunks through the carry. Work is O(T·min(C, T)/2), the local
 * scans' multiply-adds, for this one row: see carrySplitSteps to do it in slices.
 */
export function carrySplit(scanned: ArrayLike<number>, discount: number, chunkSize: number): CarrySplit {
  const steps = carrySplitSteps(scanned, discount, chunkSize);
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
}

/**
 * carrySplit as a generator that yields (nothing) after about `work` multiply-adds, so that a long
 * row with a big C (65536 tokens at C = 4096: 134 M) never becomes one long task. The local scans
 * of a run of whole chunks are those of the full row (the chunks align to the row's end, and a
 * local scan starts from zero), so each run is scanned by the same function on its own slice;
 * the carries then follow chunk by chunk, in the scan's order, with the scan's two roundings.
 * The same bits as one call of the chunked scan over the row.
 */
export function* carrySplitSteps(
  scanned: ArrayLike<number>,
  discount: number,
  chunkSize: number,
  work = CARRY_SPLIT_STEP,
): Generator<undefined, CarrySplit, unknown> {
  checkDiscount(discount);
  checkChunkSize(chunkSize);
  const T = scanned.length;
  const C = chunkSize;
  const data = Float64Array.from(scanned);
  const powTables = discountPowers(discount, C, "float64");
  const carryPowers = Float64Array.from(powTables.carryPowers);
  const nChunks = Math.ceil(T / C);
  const local = new Float64Array(T);
  const carried = new Float64Array(T);
  const total = new Float64Array(T);
  const carriesIn = new Float64Array(nChunks);
  // Whole chunks per slice: each costs about C·min(C, T)/2 multiply-adds.
  const perSlice = Math.max(1, Math.floor(work / Math.max(1, (C * Math.min(C, T)) / 2)));
  let carry = 0;
  for (let first = 0; first < nChunks; first += perSlice) {
    const last = Math.min(nChunks, first + perSlice);
    // Chunks first … last − 1 (reversed time) are original tokens [lo, hi).
    const hi = T - first * C;
    const lo = Math.max(0, T - last * C);
    const slice = data.subarray(lo, hi);
    const { trace } = allowingNonFinite(() =>
      chunkedDiscountedReturns({ rows: 1, cols: hi - lo, data: slice }, discount, { chunkSize: C, powTables }),
    );
    for (let c = first; c < last; c++) {
      carriesIn[c] = carry;
      const valid = Math.min(C, T - c * C);
      for (let k = 0; k < valid; k++) {
        const t = T - 1 - (c * C + k);
        local[t] = trace.localScans[(c - first) * C + k];
        // The scan's own product (`s_prev * pow_vec[k]`), then its add: the same two roundings.
        carried[t] = carry * carryPowers[k];
        total[t] = local[t] + carried[t];
      }
      carry = total[T - 1 - (c * C + valid - 1)];
    }
    if (last < nChunks) yield;
  }
  return { local, carried, total, carriesIn, carryPowers, chunkSize };
}

/** Where token t of a row of `length` tokens sits: its chunk (slime's numbering) and k + 1, the carry's power. */
export function carryPlace(length: number, chunkSize: number, t: number): { chunk: number; exponent: number } {
  const i = length - 1 - t;
  return { chunk: Math.floor(i / chunkSize), exponent: (i % chunkSize) + 1 };
}
