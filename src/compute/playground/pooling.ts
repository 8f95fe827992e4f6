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
  /** 1 when any valid cell of the bin has a bound of NaN or ±Inf, which checks nothing (cellErrors' `unchecked`). */
  unchecked: Uint8Array;
  /** Flat index (row·cols + token) of the bin's worst valid cell, −1 for padding bins. */
  worst: Int32Array;
}

/** One row's cells as pooling reads them, from `base` on in their arrays (PoolInput.row). */
export interface PoolRow {
  base: number;
  error: ArrayLike<number>;
  lost?: ArrayLike<number>;
  overBound?: ArrayLike<number>;
  unchecked?: ArrayLike<number>;
  lossMask?: ArrayLike<number>;
}

export interface PoolInput {
  rows: number;
  cols: number;
  lengths: ArrayLike<number>;
  /** Row-major per-cell error (NaN / Infinity allowed); unread where `row` gives each row's cells. */
  error: ArrayLike<number>;
  /**
   * 1 where the reference is NaN or ±Inf (cellErrors' `lost`), to tell a non-finite cell of both
   * scans from one of the chunked scan only; absent, every non-finite cell is drawn as lost by both.
   */
  lost?: ArrayLike<number>;
  overBound?: ArrayLike<number>;
  unchecked?: ArrayLike<number>;
  /** Row-major loss mask, 0 = masked. */
  lossMask?: ArrayLike<number>;
  /** The most bins wanted across (pixels available) and down. */
  maxBinsX: number;
  maxBinsY: number;
  /**
   * Row r's cells, asked once, in order, just before they are pooled, instead of read off the padded
   * arrays above: the run worker measures each sample's row as it pools it and keeps no batch of
   * errors (three padded fields were 240 MB at 512 × 16k). The row's arrays may be reused for the next.
   */
  row?(r: number): PoolRow;
}

/** Bin starts splitting n items into bins as even as integers allow. */
function binStarts(n: number, bins: number): Int32Array {
  const starts = new Int32Array(bins + 1);
  for (let b = 0; b <= bins; b++) starts[b] = Math.floor((b * n) / bins);
  return starts;
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

/**
 * One pass over the valid cells, a bin's run of tokens in a row at a time: its maximum, worst cell,
 * counts and flags are kept in locals and written to the bin once per run, so the pass costs about
 * one comparison per cell (8 M cells of a 512-sample dump in tens of milliseconds, in a worker).
 */
export function poolByMax(input: PoolInput): PooledGrid {
  const pooling = poolRowByRow(input);
  for (let r = 0; r < input.rows; r++) pooling.add(r);
  return pooling.finish();
}

/**
 * poolByMax a row at a time, rows 0, 1, … in order, so that several grids can be pooled in one
 * pass over rows that cost something to make (the run worker's windowed replay).
 */
export function poolRowByRow(input: PoolInput): { add(r: number): void; finish(): PooledGrid } {
  const { rows, cols } = input;
  const padded = {
    error: input.error,
    lost: input.lost,
    overBound: input.overBound,
    unchecked: input.unchecked,
    lossMask: input.lossMask,
  };
  const binsX = Math.max(1, Math.min(cols, Math.floor(input.maxBinsX)));
  const binsY = Math.max(1, Math.min(rows, Math.floor(input.maxBinsY)));
  const colStart = binStarts(cols, binsX);
  const rowStart = binStarts(rows, binsY);
  const bins = binsX * binsY;
  const value = new Float64Array(bins);
  const kind = new Uint8Array(bins).fill(BinKind.padding);
  const masked = new Uint8Array(bins);
  const over = new Uint8Array(bins);
  const notChecked = new Uint8Array(bins);
  const worst = new Int32Array(bins).fill(-1);
  // The worst cell's error beside its index: a row's arrays may be gone by the next row of its bin.
  const worstError = new Float64Array(bins);
  const validCount = new Int32Array(bins);
  const maskedCount = new Int32Array(bins);
  const state: PoolState = {
    input,
    padded,
    binsX,
    colStart,
    value,
    kind,
    over,
    notChecked,
    worst,
    worstError,
    validCount,
    maskedCount,
  };
  let by = 0;
  const add = (r: number) => {
    while (r >= rowStart[by + 1]) by++;
    poolRow(state, r, by);
  };
  const finish = (): PooledGrid => {
    for (let b = 0; b < bins; b++) {
      if (validCount[b] === 0) continue;
      if (kind[b] === BinKind.padding) kind[b] = BinKind.data;
      if (2 * maskedCount[b] >= validCount[b]) masked[b] = 1;
    }
    return grid;
  };
  const grid: PooledGrid = {
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
    unchecked: notChecked,
    worst,
  };
  return { add, finish };
}

/** What poolRowByRow's rows are pooled into. */
interface PoolState {
  input: PoolInput;
  padded: Pick<PoolInput, "error" | "lost" | "overBound" | "unchecked" | "lossMask">;
  binsX: number;
  colStart: Int32Array;
  value: Float64Array;
  kind: Uint8Array;
  over: Uint8Array;
  notChecked: Uint8Array;
  worst: Int32Array;
  worstError: Float64Array;
  validCount: Int32Array;
  maskedCount: Int32Array;
}

/**
 * Row r into bin row `by`: a per-row function, not a loop inside the loop over rows (docs/design.md,
 * "Inner loops"), and not a closure made per grid, whose compiled code V8 threw away with each grid
 * (it ran interpreted at first each edit, boxing a double per cell).
 */
function poolRow(s: PoolState, r: number, by: number): void {
  const { input, binsX, colStart, value, kind, over, notChecked, worst, worstError, validCount, maskedCount } = s;
  const { cols, lengths } = input;
  const length = Math.min(cols, Math.max(0, lengths[r] ?? cols));
  const { base, error, lost, overBound, unchecked, lossMask } = input.row?.(r) ?? { ...s.padded, base: r * cols };
  // What is added to an index of the row's arrays to make it the padded batch's (row·cols + token).
  const shift = r * cols - base;
  for (let bx = 0; bx < binsX && colStart[bx] < length; bx++) {
    const b = by * binsX + bx;
    const from = base + colStart[bx];
    const to = base + Math.min(colStart[bx + 1], length);
    let max = value[b];
    let w = worst[b];
    let we = worstError[b];
    let k: number = kind[b];
    for (let i = from; i < to; i++) {
      const e = error[i];
      if (w < 0 || worse(e, we)) {
        w = i + shift;
        we = e;
      }
      const finite = Number.isFinite(e);
      if (finite && e > max) max = e;
      // Equal infinities are 0 apart, yet both scans lost the cell: the reference decides too.
      const lostByBoth = lost !== undefined && lost[i] === 1;
      if (lostByBoth || !finite) {
        if (!lostByBoth && lost) k = BinKind.chunkedOnlyNonFinite;
        else if (k !== BinKind.chunkedOnlyNonFinite) k = BinKind.nonFinite;
      }
    }
    value[b] = max;
    worst[b] = w;
    worstError[b] = we;
    kind[b] = k;
    validCount[b] += to - from;
    if (lossMask) for (let i = from; i < to; i++) if (lossMask[i] === 0) maskedCount[b]++;
    if (overBound && !over[b]) for (let i = from; i < to; i++) if (overBound[i]) over[b] = 1;
    if (unchecked && !notChecked[b]) for (let i = from; i < to; i++) if (unchecked[i]) notChecked[b] = 1;
  }
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
