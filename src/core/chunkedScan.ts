import { type Batch, type FloatArray, precisionOf, roundingOf, zerosLike } from "./batch";
import { discountPowers, type PowTables } from "./discountPowers";
import { checkChunkSize, checkDiscount, checkFiniteBatch, checkPowTables } from "./validation";

export const DEFAULT_CHUNK_SIZE = 128;

/** The chunk layout slime uses for a row of T tokens: time reversed, right-padded to a multiple of C. */
export interface ChunkLayout {
  chunkSize: number;
  nChunks: number;
  /** Zeros appended to the reversed row; in original time they sit before t = 0. */
  pad: number;
}

export function chunkLayout(cols: number, chunkSize: number): ChunkLayout {
  const pad = cols % chunkSize === 0 ? 0 : chunkSize - (cols % chunkSize);
  return { chunkSize, nChunks: (cols + pad) / chunkSize, pad };
}

/**
 * What the chunked scan computed on the way, for the player. Both arrays are in slime's
 * reversed time: reversed position i = c·C + k is original token t = T - 1 - i.
 */
export interface ChunkTrace<A extends FloatArray = FloatArray> extends ChunkLayout {
  /** `[B, nChunks, C]`: each chunk's zero-carry prefix scan `x_chunk @ M`, padded tail included. */
  localScans: A;
  /** `[B, nChunks]`: the carry `s_prev` that entered each chunk (0 for the first). */
  carriesIn: A;
}

export interface ChunkedScanResult<A extends FloatArray = FloatArray> {
  returns: Batch<A>;
  trace: ChunkTrace<A>;
}

export interface ChunkedScanOptions {
  chunkSize?: number;
  /** Replay exact power tables (a case's `float32_pow_tables`) instead of computing them. */
  powTables?: PowTables;
}

/**
 * slime's `chunked_discounted_returns`, step for step (ALGORITHM.md §b): reverse time, pad to a
 * multiple of C, scan every chunk locally against the Toeplitz kernel of discount powers, then
 * carry each chunk's last valid value into the next one, trim and reverse back.
 *
 * In float32 the operation order is the one that reproduces slime on netlib BLAS bit for bit
 * (§b.2): the GEMM accumulates l = 0 … j sequentially without FMA, then the carry term is
 * multiplied and added as two separate roundings.
 */
export function chunkedDiscountedReturns<A extends FloatArray>(
  rewards: Batch<A>,
  discount: number,
  options: ChunkedScanOptions = {},
): ChunkedScanResult<A> {
  const chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
  checkDiscount(discount);
  checkChunkSize(chunkSize);
  checkFiniteBatch(rewards, "rewards");
  const { rows, cols, data } = rewards;
  const round = roundingOf(data);
  const float32 = precisionOf(data) === "float32";
  const tables = options.powTables ?? discountPowers(discount, chunkSize, precisionOf(data));
  checkPowTables(tables, chunkSize);
  const kernelRow = tables.kernelRow;
  const carryPowers = tables.carryPowers;
  const patchesByColumn = patchColumns(tables, data);

  const layout = chunkLayout(cols, chunkSize);
  const { nChunks } = layout;
  const paddedCols = nChunks * chunkSize;
  const out = zerosLike(data, rows * cols);
  const localScans = zerosLike(data, rows * paddedCols);
  const carriesIn = zerosLike(data, rows * nChunks);
  const x = zerosLike(data, paddedCols);
  const scanned = zerosLike(data, paddedCols);

  for (let b = 0; b < rows; b++) {
    // Step 1 and 2: reversed row, zeros after it (they precede t = 0 in original time).
    x.fill(0);
    for (let i = 0; i < cols; i++) x[i] = data[b * cols + cols - 1 - i];

    let carry = 0;
    for (let c = 0; c < nChunks; c++) {
      const start = c * chunkSize;
      const valid = Math.min(chunkSize, cols - start);
      carriesIn[b * nChunks + c] = carry;
      // The GEMM multiplies every input of the chunk by the kernel, zeros above the diagonal
      // included, and 0·NaN = 0·∞ = NaN: a non-finite input poisons the local scan before it too
      // (§b.4). Only reachable when the caller allowed non-finite inputs.
      let lastNonFinite = -1;
      for (let l = 0; l < valid; l++) if (!Number.isFinite(x[start + l])) lastNonFinite = l;
      for (let j = 0; j < chunkSize; j++) {
        // Padded positions (l ≥ valid) hold zeros and add nothing: skipping them keeps a chunk
        // far longer than the row at O(C·T) work instead of O(C²).
        const last = Math.min(j, valid - 1);
        let acc = 0;
        const patched = patchesByColumn?.get(j);
        if (patched === undefined) {
          // The hot loop (C/2 multiply-adds per token) written out per precision: a call through
          // `round` here cost 1.5 s of CPU on a 4.4 M-token dump. Same operations, same order.
          if (float32) {
            for (let l = 0; l <= last; l++) acc = Math.fround(acc + Math.fround(x[start + l] * kernelRow[j - l]));
          } else {
            for (let l = 0; l <= last; l++) acc = acc + x[start + l] * kernelRow[j - l];
          }
        } else {
          for (let l = 0; l <= last; l++) {
            acc = round(acc + round(x[start + l] * (patched.get(l) ?? kernelRow[j - l])));
          }
        }
        if (lastNonFinite > j) acc = Number.NaN;
        localScans[b * paddedCols + start + j] = acc;
        if (j < valid) scanned[start + j] = round(acc + round(carry * carryPowers[j]));
      }
      carry = scanned[start + valid - 1];
    }
    for (let i = 0; i < cols; i++) out[b * cols + cols - 1 - i] = scanned[i];
  }
  return { returns: { rows, cols, data: out }, trace: { ...layout, localScans, carriesIn } };
}

/**
 * The kernel entries that are not Toeplitz (torch's scalar-loop elements of M), by column, then
 * row, each rounded to the scan's precision. Undefined when M is Toeplitz, the usual case.
 */
function patchColumns(tables: PowTables, like: FloatArray): Map<number, Map<number, number>> | undefined {
  const patches = tables.kernelPatches;
  if (!patches || patches.length === 0) return undefined;
  const round = roundingOf(like);
  const byColumn = new Map<number, Map<number, number>>();
  for (const { row, col, value } of patches) {
    const column = byColumn.get(col) ?? new Map<number, number>();
    column.set(row, round(value));
    byColumn.set(col, column);
  }
  return byColumn;
}
