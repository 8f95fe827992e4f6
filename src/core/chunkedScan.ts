import { type Batch, type FloatArray, precisionOf, roundingOf, type Zeros, zerosLike } from "./batch";
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
  /**
   * Where the result's array and the scan's working rows come from (fresh zeros by default): a
   * ScanScratch lends the same ones to row after row.
   */
  zeros?: Zeros;
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
  // A replayed table may hold ∞ or NaN (0·∞ = NaN): then no chunk of zeros is skipped.
  const finiteTables =
    kernelRow.every(Number.isFinite) &&
    carryPowers.every(Number.isFinite) &&
    (tables.kernelPatches ?? []).every((p) => Number.isFinite(p.value));

  // Discount 1 (slime's default γ and λ): every kernel entry is 1 and x·1 is x, so output j's sum
  // over l = 0 … j in that order is output j − 1's sum plus one more term: a running sum gives the
  // same roundings in the same order, C operations a chunk instead of C²/2.
  const unitKernel = patchesByColumn === undefined && kernelRow.length >= chunkSize && allOnes(kernelRow, chunkSize);

  const layout = chunkLayout(cols, chunkSize);
  const { nChunks } = layout;
  const paddedCols = nChunks * chunkSize;
  const zeros = options.zeros ?? zerosLike;
  const out = zeros(data, rows * cols);
  const localScans = zeros(data, rows * paddedCols);
  const carriesIn = zeros(data, rows * nChunks);
  const x = zeros(data, paddedCols);
  const scanned = zeros(data, paddedCols);
  const local = new Float64Array(chunkSize);

  for (let b = 0; b < rows; b++) {
    // Step 1 and 2: reversed row, zeros after it (they precede t = 0 in original time).
    x.fill(0);
    for (let i = 0; i < cols; i++) x[i] = data[b * cols + cols - 1 - i];

    let carry = 0;
    for (let c = 0; c < nChunks; c++) {
      const start = c * chunkSize;
      const valid = Math.min(chunkSize, cols - start);
      carriesIn[b * nChunks + c] = carry;
      if (finiteTables && Object.is(carry, 0) && allPositiveZero(x, start, valid)) {
        // A right-padded batch's row starts (reversed) with its padding: +0 times any finite power,
        // plus +0, is +0, so these chunks' scans are +0 bit for bit without the C/2 multiply-adds.
        scanned.fill(0, start, start + valid);
        continue;
      }
      // The GEMM multiplies every input of the chunk by the kernel, zeros above the diagonal
      // included, and 0·NaN = 0·∞ = NaN: a non-finite input poisons the local scan before it too
      // (§b.4). Only reachable when the caller allowed non-finite inputs.
      let lastNonFinite = -1;
      for (let l = 0; l < valid; l++) if (!Number.isFinite(x[start + l])) lastNonFinite = l;
      if (unitKernel) runningSum(local, x, start, valid, float32);
      else localScan(local, x, start, valid, kernelRow, float32, patchesByColumn, round);
      for (let j = 0; j < lastNonFinite; j++) local[j] = Number.NaN;
      localScans.set(local, b * paddedCols + start);
      if (float32) addCarry32(scanned, start, local, valid, carry, carryPowers);
      else addCarry64(scanned, start, local, valid, carry, carryPowers);
      carry = scanned[start + valid - 1];
    }
    for (let i = 0; i < cols; i++) out[b * cols + cols - 1 - i] = scanned[i];
  }
  return { returns: { rows, cols, data: out }, trace: { ...layout, localScans, carriesIn } };
}

/**
 * One chunk's zero-carry scan `x_chunk @ M` into `local[j]`: for each output j the GEMM's sum over
 * l = 0 … j, in that order. Padded positions (l ≥ valid) hold zeros and add nothing: skipping them
 * keeps a chunk far longer than the row at O(C·T) work instead of O(C²).
 */
function localScan(
  local: Float64Array,
  x: FloatArray,
  start: number,
  valid: number,
  kernelRow: ArrayLike<number>,
  float32: boolean,
  patchesByColumn: Map<number, Map<number, number>> | undefined,
  round: (v: number) => number,
): void {
  const C = local.length;
  for (let j = 0; j < C; j++) {
    const last = Math.min(j, valid - 1);
    const patched = patchesByColumn?.get(j);
    let acc = 0;
    if (patched !== undefined) {
      for (let l = 0; l <= last; l++) acc = round(acc + round(x[start + l] * (patched.get(l) ?? kernelRow[j - l])));
    } else if (!float32) {
      for (let l = 0; l <= last; l++) acc = acc + x[start + l] * kernelRow[j - l];
    } else if (
      j + 3 < C &&
      (patchesByColumn === undefined ||
        (!patchesByColumn.has(j + 1) && !patchesByColumn.has(j + 2) && !patchesByColumn.has(j + 3)))
    ) {
      // The hot loop, C/2 multiply-adds per token: outputs j … j + 3 summed side by side, each in
      // its own order l = 0, 1, … (bit for bit the same as one at a time), so that four independent
      // chains of roundings overlap and share the loads; then each adds its terms past l = j.
      let a1 = 0;
      let a2 = 0;
      let a3 = 0;
      for (let l = 0; l <= last; l++) {
        const xl = x[start + l];
        const k = j - l;
        acc = Math.fround(acc + Math.fround(xl * kernelRow[k]));
        a1 = Math.fround(a1 + Math.fround(xl * kernelRow[k + 1]));
        a2 = Math.fround(a2 + Math.fround(xl * kernelRow[k + 2]));
        a3 = Math.fround(a3 + Math.fround(xl * kernelRow[k + 3]));
      }
      if (j + 1 <= valid - 1) {
        const x1 = x[start + j + 1];
        a1 = Math.fround(a1 + Math.fround(x1 * kernelRow[0]));
        a2 = Math.fround(a2 + Math.fround(x1 * kernelRow[1]));
        a3 = Math.fround(a3 + Math.fround(x1 * kernelRow[2]));
      }
      if (j + 2 <= valid - 1) {
        const x2 = x[start + j + 2];
        a2 = Math.fround(a2 + Math.fround(x2 * kernelRow[0]));
        a3 = Math.fround(a3 + Math.fround(x2 * kernelRow[1]));
      }
      if (j + 3 <= valid - 1) a3 = Math.fround(a3 + Math.fround(x[start + j + 3] * kernelRow[0]));
      local[j] = acc;
      local[j + 1] = a1;
      local[j + 2] = a2;
      local[j + 3] = a3;
      j += 3;
      continue;
    } else if (j + 1 < C && patchesByColumn?.get(j + 1) === undefined) {
      // The chunk's last outputs: j and j + 1 summed side by side (each in
      // its own order, so bit for bit the same) share the loads and overlap their two roundings.
      let next = 0;
      for (let l = 0; l <= last; l++) {
        const xl = x[start + l];
        acc = Math.fround(acc + Math.fround(xl * kernelRow[j - l]));
        next = Math.fround(next + Math.fround(xl * kernelRow[j + 1 - l]));
      }
      if (j + 1 <= valid - 1) next = Math.fround(next + Math.fround(x[start + j + 1] * kernelRow[0]));
      local[j + 1] = next;
      local[j] = acc;
      j++;
      continue;
    } else {
      for (let l = 0; l <= last; l++) acc = Math.fround(acc + Math.fround(x[start + l] * kernelRow[j - l]));
    }
    local[j] = acc;
  }
}

/**
 * localScan with every kernel entry 1: `local[j]` is the sum of x over l = 0 … min(j, valid − 1) in
 * that order, each addition rounded to the scan's precision, as localScan adds them.
 */
function runningSum(local: Float64Array, x: FloatArray, start: number, valid: number, float32: boolean): void {
  const C = local.length;
  let acc = 0;
  if (float32) for (let j = 0; j < valid; j++) local[j] = acc = Math.fround(acc + x[start + j]);
  else for (let j = 0; j < valid; j++) local[j] = acc = acc + x[start + j];
  local.fill(acc, valid, C);
}

function allOnes(row: ArrayLike<number>, count: number): boolean {
  for (let k = 0; k < count; k++) if (row[k] !== 1) return false;
  return true;
}

/** `scanned[start + j] = local[j] + carry·d^(j+1)`, two float32 roundings (no FMA), as slime's CPU code adds them. */
function addCarry32(
  scanned: FloatArray,
  start: number,
  local: Float64Array,
  valid: number,
  carry: number,
  carryPowers: ArrayLike<number>,
): void {
  for (let j = 0; j < valid; j++) scanned[start + j] = Math.fround(local[j] + Math.fround(carry * carryPowers[j]));
}

/** addCarry32 in float64. */
function addCarry64(
  scanned: FloatArray,
  start: number,
  local: Float64Array,
  valid: number,
  carry: number,
  carryPowers: ArrayLike<number>,
): void {
  for (let j = 0; j < valid; j++) scanned[start + j] = local[j] + carry * carryPowers[j];
}

function allPositiveZero(x: FloatArray, start: number, count: number): boolean {
  for (let i = start; i < start + count; i++) if (x[i] !== 0 || Object.is(x[i], -0)) return false;
  return true;
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
