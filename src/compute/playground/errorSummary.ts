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

/**
 * Max abs, rel and ulp error over every valid token of every output (padding is not data), the
 * bound at the largest error, the count over the bound and the worst error / bound, gathered a
 * slice of rows at a time so that the page can breathe between slices at 16 × 8192. A NaN or
 * ±Inf on the chunked side where the reference is finite is infinitely wrong; cells where the
 * reference is NaN or ±Inf are counted apart, not measured.
 */
export class ErrorAccumulator {
  private maxAbs = 0;
  private boundAtMax: number | null = null;
  private maxRel = 0;
  private maxUlps = 0;
  private overBound = 0;
  private unbounded = 0;
  private worstFraction: ErrorSummary["worstFraction"] = null;
  private cells = 0;
  private nonFiniteChunked = 0;
  private nonFiniteSerial = 0;
  private chunkedOnly = 0;
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
    const act = this.input.chunked[name] as ArrayLike<number>;
    const limit = this.input.bound?.[name];
    let floor = this.floors.get(name);
    if (floor === undefined) {
      floor = relFloor(ref, precision);
      this.floors.set(name, floor);
    }
    const f32 = precision === "float32";
    for (let r = r0; r < r1; r++) this.addRow(name, r, Math.min(cols, lengths[r]), ref, act, limit, floor, f32);
  }

  /**
   * One row of one output: a function per row, not an inner loop (docs/design.md, "Inner loops"),
   * called once per row for the whole batch.
   */
  private addRow(
    name: OutputName,
    r: number,
    length: number,
    ref: Float64Array,
    act: ArrayLike<number>,
    limit: Float64Array | undefined,
    floor: number,
    f32: boolean,
  ): void {
    const { cols, precision } = this.input;
    // The running figures in locals for the loop (a field written per cell cost about 3× the time).
    let { cells, nonFiniteChunked, nonFiniteSerial, chunkedOnly, maxAbs, maxRel, maxUlps, overBound, unbounded } = this;
    let worstFraction = this.worstFraction?.fraction ?? Number.NaN;
    for (let t = 0; t < length; t++) {
      const i = r * cols + t;
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
      const bound = limit ? limit[i] : undefined;
      if (abs > maxAbs || this.worst === null) {
        maxAbs = abs;
        this.worst = { output: name, row: r, token: t };
        this.boundAtMax = bound ?? null;
      }
      if (rel > maxRel) maxRel = rel;
      if (ulps > maxUlps) maxUlps = ulps;
      if (bound !== undefined) {
        // An infinite error is over any bound; a finite one against a bound of ±Inf or NaN is not judged.
        if (Number.isFinite(abs) && !Number.isFinite(bound)) {
          unbounded++;
          continue;
        }
        if (!(abs <= bound) || abs === Number.POSITIVE_INFINITY) overBound++;
        const fraction = abs === 0 ? 0 : bound > 0 ? abs / bound : Number.POSITIVE_INFINITY;
        if (this.worstFraction === null || fraction > worstFraction) {
          worstFraction = fraction;
          this.worstFraction = { fraction, cell: { output: name, row: r, token: t } };
        }
      }
    }
    this.cells = cells;
    this.nonFiniteChunked = nonFiniteChunked;
    this.nonFiniteSerial = nonFiniteSerial;
    this.chunkedOnly = chunkedOnly;
    this.maxAbs = maxAbs;
    this.maxRel = maxRel;
    this.maxUlps = maxUlps;
    this.overBound = overBound;
    this.unbounded = unbounded;
  }

  summary(): ErrorSummary {
    const { maxAbs, maxRel, maxUlps, cells } = this;
    return {
      maxAbs,
      boundAtMax: this.boundAtMax,
      maxRel,
      maxUlps,
      overBound: this.input.bound ? this.overBound : null,
      worstFraction: this.worstFraction,
      cells,
      nonFinite: { chunked: this.nonFiniteChunked, serial: this.nonFiniteSerial },
      chunkedOnly: this.chunkedOnly,
      lost: this.nonFiniteSerial,
      unbounded: this.unbounded,
      worst: this.worst,
    };
  }
}

/** The summary in one go (tests, small batches). */
export function summarizeErrors(input: SummaryInput): ErrorSummary {
  const accumulator = new ErrorAccumulator(input);
  for (const name of accumulator.outputs) accumulator.add(name, 0, input.rows);
  return accumulator.summary();
}
