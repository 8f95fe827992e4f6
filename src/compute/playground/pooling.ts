/**
 * Pooling the padded batch's per-cell errors into at most binsX × binsY pixels by MAXIMUM, so a
 * single bad token survives however many tokens share its pixel. Non-finite errors outrank every
 * number; masked and padding cells are tracked so the drawing can mark them.
 */

/**
 * What a bin holds; drawn in this order of precedence. `nonFinite`: the serial reference is
 * non-finite there too (both scans lost it); `chunkedOnlyNonFinite`: the serial loop kept a number
 * that the chunked scan lost (a NaN spread over its chunk, ALGORITHM.md §b.4): it outranks the first.
 */
export const BinKind = { data: 0, padding: 1, nonFinite: 2, chunkedOnlyNonFinite: 3 } as const;

export interface PooledGrid {
  binsX: number;
  binsY: number;
  /** The most tokens (rows) that share one bin column (row): 1 when nothing is pooled. */
  tokensPerBin: number;
  rowsPerBin: number;
  /** First token of each bin column, plus cols at the end (binsX + 1 entries). */
  colStart: Int32Array;
  /** First row of each bin row, plus rows at the end (binsY + 1 entries). */
  rowStart: Int32Array;
  /** Largest finite error among the bin's valid cells (0 for padding and all-non-finite bins). */
  value: Float64Array;
  /** BinKind of each bin. */
  kind: Uint8Array;
  /** 1 when at least half of the bin's valid cells are masked (the bin is drawn hatched). */
  masked: Uint8Array;
  /** 1 when any valid cell of the bin is over its bound. */
  overBound: Uint8Array;
  /** Flat index (row·cols + token) of the bin's worst valid cell, −1 for padding bins. */
  worst: Int32Array;
}

export interface PoolInput {
  rows: number;
  cols: number;
  lengths: ArrayLike<number>;
  /** Row-major per-cell error (NaN / Infinity allowed). */
  error: ArrayLike<number>;
  /** The serial reference, to tell a non-finite cell of both scans from one of the chunked scan only. */
  reference?: ArrayLike<number>;
  overBound?: ArrayLike<number>;
  /** Row-major loss mask, 0 = masked. */
  lossMask?: ArrayLike<number>;
  /** The most bins wanted across (pixels available) and down. */
  maxBinsX: number;
  maxBinsY: number;
}

/** Bin starts splitting n items into bins as even as integers allow. */
function binStarts(n: number, bins: number): Int32Array {
  const starts = new Int32Array(bins + 1);
  for (let b = 0; b <= bins; b++) starts[b] = Math.floor((b * n) / bins);
  return starts;
}

/** Which bin each item falls in. */
function binOf(starts: Int32Array, n: number): Int32Array {
  const of = new Int32Array(n);
  for (let b = 0; b < starts.length - 1; b++) of.fill(b, starts[b], starts[b + 1]);
  return of;
}

function widest(starts: Int32Array): number {
  let w = 0;
  for (let b = 0; b < starts.length - 1; b++) w = Math.max(w, starts[b + 1] - starts[b]);
  return w;
}

/** Is error a worse than error b? Non-finite beats finite, NaN beats infinity. */
function worse(a: number, b: number): boolean {
  if (Number.isNaN(b)) return false;
  if (Number.isNaN(a)) return true;
  return a > b;
}

export function poolByMax(input: PoolInput): PooledGrid {
  const job = poolJob(input);
  job.addRows(0, input.rows);
  return job.finish();
}

/**
 * poolByMax a slice of rows at a time (addRows), so that a large batch is pooled over several
 * tasks; finish() gives the grid once every row is added. Cells are visited in the same order.
 */
export function poolJob(input: PoolInput): { addRows(from: number, to: number): void; finish(): PooledGrid } {
  const { rows, cols, lengths, error, reference, overBound, lossMask } = input;
  const binsX = Math.max(1, Math.min(cols, Math.floor(input.maxBinsX)));
  const binsY = Math.max(1, Math.min(rows, Math.floor(input.maxBinsY)));
  const colStart = binStarts(cols, binsX);
  const rowStart = binStarts(rows, binsY);
  const colBin = binOf(colStart, cols);
  const rowBin = binOf(rowStart, rows);
  const bins = binsX * binsY;
  const value = new Float64Array(bins);
  const kind = new Uint8Array(bins).fill(BinKind.padding);
  const masked = new Uint8Array(bins);
  const over = new Uint8Array(bins);
  const worst = new Int32Array(bins).fill(-1);
  const validCount = new Int32Array(bins);
  const maskedCount = new Int32Array(bins);
  // One row per call: a per-row function, not an inner loop (see README, "Inner loops").
  const addRow = (r: number) => {
    const length = Math.min(cols, Math.max(0, lengths[r] ?? cols));
    const binRow = rowBin[r] * binsX;
    for (let t = 0; t < length; t++) {
      const i = r * cols + t;
      const b = binRow + colBin[t];
      const e = error[i];
      validCount[b]++;
      if (lossMask && lossMask[i] === 0) maskedCount[b]++;
      if (overBound?.[i]) over[b] = 1;
      if (worst[b] < 0 || worse(e, error[worst[b]])) worst[b] = i;
      // Equal infinities are 0 apart, yet both scans lost the cell: the reference decides too.
      const lostByBoth = reference !== undefined && !Number.isFinite(reference[i]);
      if (Number.isFinite(e) && e > value[b]) value[b] = e;
      if (!Number.isFinite(e) && !lostByBoth && reference) {
        kind[b] = BinKind.chunkedOnlyNonFinite;
      } else if ((lostByBoth || !Number.isFinite(e)) && kind[b] !== BinKind.chunkedOnlyNonFinite) {
        kind[b] = BinKind.nonFinite;
      }
    }
  };
  const addRows = (from: number, to: number) => {
    for (let r = from; r < Math.min(rows, to); r++) addRow(r);
  };
  const finish = (): PooledGrid => {
    for (let b = 0; b < bins; b++) {
      if (validCount[b] === 0) continue;
      if (kind[b] === BinKind.padding) kind[b] = BinKind.data;
      if (2 * maskedCount[b] >= validCount[b]) masked[b] = 1;
    }
    return {
      binsX,
      binsY,
      tokensPerBin: widest(colStart),
      rowsPerBin: widest(rowStart),
      colStart,
      rowStart,
      value,
      kind,
      masked,
      overBound: over,
      worst,
    };
  };
  return { addRows, finish };
}

/** The worst valid cell of the batch (non-finite first), or null when no row has a token. */
export function worstCell(
  rows: number,
  cols: number,
  lengths: ArrayLike<number>,
  error: ArrayLike<number>,
): { row: number; token: number; error: number } | null {
  let best = -1;
  for (let r = 0; r < rows; r++) {
    const length = Math.min(cols, Math.max(0, lengths[r] ?? cols));
    for (let t = 0; t < length; t++) {
      const i = r * cols + t;
      if (best < 0 || worse(error[i], error[best])) best = i;
    }
  }
  if (best < 0) return null;
  return { row: Math.floor(best / cols), token: best % cols, error: error[best] };
}

/**
 * The bin with the largest finite error (−1 if every error is 0), marked on the picture so that a
 * one-pixel spike is found at a glance. Non-finite bins carry marks of their own.
 */
export function worstBin(grid: PooledGrid): number {
  let best = -1;
  for (let b = 0; b < grid.kind.length; b++) {
    if (grid.kind[b] !== BinKind.padding && grid.value[b] > 0 && (best < 0 || grid.value[b] > grid.value[best]))
      best = b;
  }
  return best;
}

/** The smallest positive and the largest finite pooled value among data bins of the given bin rows. */
export function pooledDomain(grid: PooledGrid, binRows?: [number, number]): { min: number; max: number } {
  const [from, to] = binRows ?? [0, grid.binsY];
  let min = Number.POSITIVE_INFINITY;
  let max = 0;
  for (let b = from * grid.binsX; b < to * grid.binsX; b++) {
    if (grid.kind[b] === BinKind.padding) continue;
    const v = grid.value[b];
    if (v > 0 && v < min) min = v;
    if (v > max) max = v;
  }
  return { min: Number.isFinite(min) ? min : 0, max };
}
