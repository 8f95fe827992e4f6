import type { FloatArray, Precision } from "../../core";
import { absError, relError, relFloor, ulpDistance } from "./cellErrors";
import type { OutputName, OutputTables } from "./outputTables";

/** One cell of the batch: which output, row and token. */
export interface SummaryCell {
  output: OutputName;
  row: number;
  token: number;
}

/**
 * The whole batch's error, chunked against the float64 serial reference, over every output, in the
 * words of docs/verdicts.md. A cell where the chunked side is NaN or ±Inf and the reference is
 * finite is an error of Infinity, over its bound; a cell where the reference itself is NaN or ±Inf
 * has no error to measure and is counted apart (`lost`), never as within.
 */
export interface ErrorSummary {
  maxAbs: number;
  /** The bound of the cell with the largest error (so a batch within its bounds has maxAbs ≤ this); null without bounds or cells. */
  boundAtMax: number | null;
  maxRel: number;
  /** Largest distance in ulps of the chunked side's precision. */
  maxUlps: number;
  /** Cells over their per-element bound, chunked-only NaN / ±Inf included; null when no bound was given. */
  overBound: number | null;
  /** The largest error / bound and its cell; null without bounds or measured cells. */
  worstFraction: { fraction: number; cell: SummaryCell } | null;
  /** Cells compared (valid tokens × outputs), non-finite ones included. */
  cells: number;
  /** Cells where the chunked side, or the float64 serial reference, is NaN or ±Inf (each side counted). */
  nonFinite: { chunked: number; serial: number };
  /** Cells where the chunked side is NaN / ±Inf and the reference finite: in the figures, over the bound. */
  chunkedOnly: number;
  /** Cells where the reference is NaN / ±Inf: left out of every figure above. */
  lost: number;
  /**
   * Cells whose bound is ±Inf or NaN while their error is finite: a bound that checks nothing, so
   * they are neither over nor within it (not judged); 0 without bounds.
   */
  unbounded: number;
  /** Where the largest absolute error is (first one on ties); null when no cell was measured. */
  worst: SummaryCell | null;
}

export interface SummaryInput {
  rows: number;
  cols: number;
  lengths: ArrayLike<number>;
  reference: OutputTables<Float64Array>;
  chunked: OutputTables;
  /** Per-element allowed |chunked − reference|, shaped like the tables. */
  bound?: OutputTables<Float64Array>;
  precision: "float32" | "float64";
  /**
   * The relative error's floor of each output's reference (relFloor in this precision), where the
   * caller has it already: the playground worker computes it before the engine answers.
   */
  floors?: Partial<Record<OutputName, number>>;
}

const bits32 = new Float32Array(2);
const ints32 = new Int32Array(bits32.buffer);

/** ulps between two finite float32 values (the fast path of cellErrors' ulpDistance). */
function ulps32(a: number, b: number): number {
  bits32[0] = a;
  bits32[1] = b;
  const x = ints32[0] < 0 ? -(ints32[0] & 0x7fffffff) : ints32[0];
  const y = ints32[1] < 0 ? -(ints32[1] & 0x7fffffff) : ints32[1];
  return Math.abs(x - y);
}

// The running figures of an accumulator, slots of one Float64Array: its per-row loop keeps them as
// unboxed doubles. (The loop read the bound as `number | undefined` and kept the figures on the
// object: at 16 × 8192 that boxed a double per cell, 2 MB of garbage and 3–11 ms an edit.)
const CELLS = 0;
const NON_FINITE_CHUNKED = 1;
const NON_FINITE_SERIAL = 2;
const CHUNKED_ONLY = 3;
const MAX_ABS = 4;
const MAX_REL = 5;
const MAX_ULPS = 6;
const OVER_BOUND = 7;
const UNBOUNDED = 8;
/** The worst error / bound so far, and whether there is one (it may be NaN: ∞ / ∞). */
const WORST_FRACTION = 9;
const HAS_FRACTION = 14;
/** Whether a cell was measured yet (the first one is the worst until a larger error). */
const HAS_WORST = 10;
/** What the last row changed: the token of a new worst cell (−1: none) and its bound; the same for the worst fraction. */
const ROW_WORST = 11;
const ROW_WORST_BOUND = 12;
const ROW_WORST_FRACTION = 13;
const SLOTS = 15;

const NO_BOUND = new Float64Array(0);

/**
 * Max abs, rel and ulp error over every valid token of every output (padding is not data), the
 * bound at the largest error, the count over the bound and the worst error / bound, gathered a
 * slice of rows at a time. A NaN or ±Inf on the chunked side where the reference is finite is
 * infinitely wrong; cells where the reference is NaN or ±Inf are counted apart, not measured.
 */
export class ErrorAccumulator {
  private readonly figures = new Float64Array(SLOTS);
  private boundAtMax: number | null = null;
  private worstFraction: ErrorSummary["worstFraction"] = null;
  private worst: ErrorSummary["worst"] = null;
  private readonly floors = new Map<OutputName, number>();

  constructor(private readonly input: SummaryInput) {
    for (const [name, floor] of Object.entries(input.floors ?? {}) as [OutputName, number | undefined][])
      if (floor !== undefined) this.floors.set(name, floor);
  }

  /** The outputs present in both the reference and the chunked side, in order. */
  get outputs(): OutputName[] {
    const { reference, chunked } = this.input;
    return (Object.keys(reference) as OutputName[]).filter((name) => reference[name] && chunked[name]);
  }

  /** Adds rows [r0, r1) of one output. */
  add(name: OutputName, r0: number, r1: number): void {
    const { cols, lengths, precision } = this.input;
    const ref = this.input.reference[name] as Float64Array;
    const act = this.input.chunked[name] as FloatArray;
    const limit = this.input.bound?.[name];
    let floor = this.floors.get(name);
    if (floor === undefined) {
      floor = relFloor(ref, precision);
      this.floors.set(name, floor);
    }
    const f = this.figures;
    for (let r = r0; r < r1; r++) {
      measureRow(
        f,
        ref,
        act,
        limit ?? NO_BOUND,
        limit !== undefined,
        r * cols,
        Math.min(cols, lengths[r]),
        floor,
        precision,
      );
      if (f[ROW_WORST] >= 0) {
        this.worst = { output: name, row: r, token: f[ROW_WORST] };
        this.boundAtMax = limit ? f[ROW_WORST_BOUND] : null;
      }
      if (f[ROW_WORST_FRACTION] >= 0)
        this.worstFraction = {
          fraction: f[WORST_FRACTION],
          cell: { output: name, row: r, token: f[ROW_WORST_FRACTION] },
        };
    }
  }

  summary(): ErrorSummary {
    const f = this.figures;
    return {
      maxAbs: f[MAX_ABS],
      boundAtMax: this.boundAtMax,
      maxRel: f[MAX_REL],
      maxUlps: f[MAX_ULPS],
      overBound: this.input.bound ? f[OVER_BOUND] : null,
      worstFraction: this.worstFraction,
      cells: f[CELLS],
      nonFinite: { chunked: f[NON_FINITE_CHUNKED], serial: f[NON_FINITE_SERIAL] },
      chunkedOnly: f[CHUNKED_ONLY],
      lost: f[NON_FINITE_SERIAL],
      unbounded: this.input.bound ? f[UNBOUNDED] : 0,
      worst: this.worst,
    };
  }
}

/**
 * One row of one output into the figures `f` (its cells `start … start + length` of the tables): a
 * function per row, not an inner loop (docs/design.md, "Inner loops"), its figures in locals.
 */
function measureRow(
  f: Float64Array,
  ref: Float64Array,
  act: FloatArray,
  limit: Float64Array,
  bounded: boolean,
  start: number,
  length: number,
  floor: number,
  precision: Precision,
): void {
  const f32 = precision === "float32";
  let cells = f[CELLS];
  let nonFiniteChunked = f[NON_FINITE_CHUNKED];
  let nonFiniteSerial = f[NON_FINITE_SERIAL];
  let chunkedOnly = f[CHUNKED_ONLY];
  let maxAbs = f[MAX_ABS];
  let maxRel = f[MAX_REL];
  let maxUlps = f[MAX_ULPS];
  let overBound = f[OVER_BOUND];
  let unbounded = f[UNBOUNDED];
  let worstFraction = f[WORST_FRACTION];
  let hasFraction = f[HAS_FRACTION] === 1;
  let hasWorst = f[HAS_WORST] === 1;
  let rowWorst = -1;
  let rowWorstBound = 0;
  let rowWorstFraction = -1;
  for (let t = 0; t < length; t++) {
    const i = start + t;
    const a = act[i];
    const e = ref[i];
    cells++;
    if (!Number.isFinite(a)) nonFiniteChunked++;
    if (!Number.isFinite(e)) {
      // The reference lost this cell: nothing to measure against.
      nonFiniteSerial++;
      continue;
    }
    let abs: number;
    let rel: number;
    let ulps: number;
    if (!Number.isFinite(a)) {
      // NaN or ±Inf where the truth is finite: infinitely far from it, over any bound.
      chunkedOnly++;
      abs = rel = ulps = Number.POSITIVE_INFINITY;
    } else {
      abs = Math.abs(a - e);
      if (abs <= Number.MAX_VALUE) {
        rel = abs === 0 ? 0 : abs / Math.max(Math.abs(e), floor);
        ulps = abs === 0 ? 0 : f32 && Number.isFinite(Math.fround(e)) ? ulps32(a, e) : ulpDistance(e, a, precision);
      } else {
        // Two huge finite values whose difference overflows: the careful versions decide.
        abs = absError(e, a);
        rel = relError(e, a, floor);
        ulps = ulpDistance(e, a, precision);
      }
    }
    const bound = bounded ? limit[i] : 0;
    if (abs > maxAbs || !hasWorst) {
      maxAbs = abs;
      hasWorst = true;
      rowWorst = t;
      rowWorstBound = bound;
    }
    if (rel > maxRel) maxRel = rel;
    if (ulps > maxUlps) maxUlps = ulps;
    if (bounded) {
      // An infinite error is over any bound; a finite one against a bound of ±Inf or NaN is not judged.
      if (Number.isFinite(abs) && !Number.isFinite(bound)) {
        unbounded++;
        continue;
      }
      if (!(abs <= bound) || abs === Number.POSITIVE_INFINITY) overBound++;
      const fraction = abs === 0 ? 0 : bound > 0 ? abs / bound : Number.POSITIVE_INFINITY;
      if (!hasFraction || fraction > worstFraction) {
        worstFraction = fraction;
        hasFraction = true;
        rowWorstFraction = t;
      }
    }
  }
  f[CELLS] = cells;
  f[NON_FINITE_CHUNKED] = nonFiniteChunked;
  f[NON_FINITE_SERIAL] = nonFiniteSerial;
  f[CHUNKED_ONLY] = chunkedOnly;
  f[MAX_ABS] = maxAbs;
  f[MAX_REL] = maxRel;
  f[MAX_ULPS] = maxUlps;
  f[OVER_BOUND] = overBound;
  f[UNBOUNDED] = unbounded;
  f[WORST_FRACTION] = worstFraction;
  f[HAS_FRACTION] = hasFraction ? 1 : 0;
  f[HAS_WORST] = hasWorst ? 1 : 0;
  f[ROW_WORST] = rowWorst;
  f[ROW_WORST_BOUND] = rowWorstBound;
  f[ROW_WORST_FRACTION] = rowWorstFraction;
}

/** The summary in one go (tests, small batches). */
export function summarizeErrors(input: SummaryInput): ErrorSummary {
  const accumulator = new ErrorAccumulator(input);
  for (const name of accumulator.outputs) accumulator.add(name, 0, input.rows);
  return accumulator.summary();
}
