/**
 * Error of one chunked value against the float64 serial reference, in three measures: absolute,
 * relative and units in the last place. Non-finite values never compare as small: a NaN anywhere
 * gives NaN, an infinity against a finite value gives Infinity, equal infinities give 0.
 */

export type ErrorMetric = "abs" | "rel" | "ulp";
export type Precision = "float32" | "float64";

// Bit patterns by aliasing typed arrays (faster than DataView in the per-cell loop); the 32-bit
// halves of a float64 are ordered by the platform's endianness.
const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
const f32 = new Float32Array(1);
const i32 = new Int32Array(f32.buffer);
const HI = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;
const LO = 1 - HI;

/** The float32 bit pattern (after rounding to float32) as an integer that orders like the values. */
function ordered32(x: number): number {
  f32[0] = x;
  const bits = i32[0];
  return bits < 0 ? -(bits & 0x7fffffff) : bits;
}

/** Shared handling of NaN and infinities; undefined when both are finite. */
function nonFiniteDistance(a: number, b: number): number | undefined {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.NaN;
  if (a === b) return 0;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return Number.POSITIVE_INFINITY;
  return undefined;
}

/**
 * How many representable numbers of the precision lie between a and b, counted exactly on the bit
 * patterns. For float32 both are first rounded to float32, so a float32 result equal to the correctly
 * rounded reference is 0 ulp away. A value that overflows float32 when rounded counts as Infinity.
 */
export function ulpDistance(a: number, b: number, precision: Precision): number {
  if (!(Math.abs(a - b) < Number.POSITIVE_INFINITY)) {
    // Rare: a non-finite value, or two huge finite ones whose difference overflows.
    const special = nonFiniteDistance(a, b);
    if (special !== undefined) return special;
  }
  if (precision === "float32") {
    const fa = Math.fround(a);
    const fb = Math.fround(b);
    const overflow = nonFiniteDistance(fa, fb);
    if (overflow !== undefined) return overflow;
    return Math.abs(ordered32(fa) - ordered32(fb));
  }
  return ulpDistance64(a, b);
}

/**
 * Float64 steps between two finite values, from the two 32-bit halves of each bit pattern (no
 * BigInt: this runs for every cell of a 16 × 8192 batch). One rounding at the end: exact below 2^53,
 * correctly rounded above.
 */
function ulpDistance64(a: number, b: number): number {
  f64[0] = a;
  const ha = u32[HI];
  const la = u32[LO];
  f64[0] = b;
  const hb = u32[HI];
  const lb = u32[LO];
  const ma = ha & 0x7fffffff;
  const mb = hb & 0x7fffffff;
  // Same sign: the magnitudes' patterns differ by the distance. Opposite signs: it passes through 0.
  if (ha >>> 31 === hb >>> 31) return Math.abs((ma - mb) * 2 ** 32 + (la - lb));
  return (ma + mb) * 2 ** 32 + (la + lb);
}

/** |actual − reference|, with equal infinities at distance 0. */
export function absError(reference: number, actual: number): number {
  const e = Math.abs(actual - reference);
  return e < Number.POSITIVE_INFINITY ? e : (nonFiniteDistance(reference, actual) ?? e);
}

/**
 * |actual − reference| / max(|reference|, floor). The floor keeps a reference of exactly 0 (or one
 * crossing 0) from turning a last-bit difference into an infinite relative error; see relFloor.
 */
export function relError(reference: number, actual: number, floor: number): number {
  const abs = absError(reference, actual);
  if (abs === 0 || !Number.isFinite(abs)) return abs;
  return abs / Math.max(Math.abs(reference), floor);
}

/** Machine epsilon of the precision. */
export function epsilonOf(precision: Precision): number {
  return precision === "float32" ? 2 ** -23 : 2 ** -52;
}

/**
 * The relative error's denominator floor: one epsilon of the batch's largest reference magnitude,
 * i.e. the absolute size of a last-bit rounding at the batch's scale (the smallest normal number
 * when the reference is all zeros). Below it, relative error would only measure how close to 0 the
 * reference happens to be.
 */
export function relFloor(reference: ArrayLike<number>, precision: Precision): number {
  let scale = 0;
  for (let i = 0; i < reference.length; i++) {
    const m = Math.abs(reference[i]);
    if (m > scale && Number.isFinite(m)) scale = m;
  }
  const smallestNormal = precision === "float32" ? 2 ** -126 : 2 ** -1022;
  return Math.max(scale * epsilonOf(precision), smallestNormal);
}

/** Input of cellErrors: the padded batch and what to measure. */
export interface CellErrorInput {
  rows: number;
  cols: number;
  /** Valid tokens per row; cells beyond are padding and get error 0 (they are flagged, not measured). */
  lengths: ArrayLike<number>;
  reference: ArrayLike<number>;
  actual: ArrayLike<number>;
  /** Per-element allowed absolute error; absent means no cell is over. */
  bound?: ArrayLike<number>;
  metric: ErrorMetric;
  precision: Precision;
}

/** Error of every cell of the padded batch in the chosen metric, and which cells exceed their bound. */
export interface CellErrors {
  /** Row-major rows × cols, in the metric (NaN / Infinity kept). */
  error: Float64Array;
  /**
   * 1 where |actual − reference| > bound, or where actual is NaN / ±Inf and the reference finite (a
   * non-finite result where the truth is finite is over its bound). A cell the reference lost to NaN
   * or ±Inf is not measured, so neither over nor within (see cellLoss): the heatmap marks it as lost.
   */
  overBound: Uint8Array;
  /** 1 where the reference itself is NaN or ±Inf (lost by both sides, or by the reference alone). */
  lost: Uint8Array;
  /**
   * 1 where both values are finite but the bound is NaN or ±Inf (it came from NaN or infinite
   * inputs): a bound that checks nothing, so the cell is neither over nor within it (not checked),
   * as errorSummary's `unbounded` counts it.
   */
  unchecked: Uint8Array;
  /** The relative error's denominator floor used (see relFloor). */
  relFloor: number;
}

/**
 * Measures every valid cell of the batch in one pass (after relFloor's pass over the reference).
 * Padding cells keep error 0 and no flags. `into`: arrays made ready before the actual side was
 * known (emptyCellErrors: zeroed, of rows × cols, relFloor of this reference in this precision).
 */
export function cellErrors(input: CellErrorInput, into?: CellErrors): CellErrors {
  const { rows, cols, lengths, reference, actual, metric, precision } = input;
  const n = rows * cols;
  if (reference.length < n || actual.length < n) {
    throw new Error(`heatmap data has ${Math.min(reference.length, actual.length)} values, expected ${rows}×${cols}`);
  }
  const out: CellErrors = into ?? {
    error: new Float64Array(n),
    overBound: new Uint8Array(n),
    lost: new Uint8Array(n),
    unchecked: new Uint8Array(n),
    relFloor: relFloor(reference, precision),
  };
  // One row per call: a per-row function, not a loop inside the loop over rows (docs/design.md, "Inner loops").
  for (let r = 0; r < rows; r++) {
    const from = r * cols;
    measureCells(out, from, input, from, Math.min(cols, Math.max(0, lengths[r] ?? cols)), metric, precision);
  }
  return out;
}

/**
 * Zeroed arrays for cellErrors of a `cells`-cell batch, with the reference's relFloor: what does not
 * need the actual side, made beforehand. `reuse`: arrays of an older measurement nothing reads any more.
 */
export function emptyCellErrors(
  reference: ArrayLike<number>,
  cells: number,
  precision: Precision,
  reuse?: CellErrors,
): CellErrors {
  // A detached or resized array (length 0 or another) is not reused: all four fit, or new ones are made.
  const fits =
    reuse !== undefined && [reuse.error, reuse.overBound, reuse.lost, reuse.unchecked].every((a) => a.length === cells);
  const zeroed = <A extends Float64Array | Uint8Array>(a: A | undefined, make: () => A): A =>
    fits && a ? (a.fill(0) as A) : make();
  return {
    error: zeroed(reuse?.error, () => new Float64Array(cells)),
    overBound: zeroed(reuse?.overBound, () => new Uint8Array(cells)),
    lost: zeroed(reuse?.lost, () => new Uint8Array(cells)),
    unchecked: zeroed(reuse?.unchecked, () => new Uint8Array(cells)),
    relFloor: relFloor(reference, precision),
  };
}

/**
 * Measures `n` cells read from `cells` at `from` on into `out` at `to` on: one row of a padded
 * batch (cellErrors), or one sample's row read off its own arrays into the padded batch's place
 * (the run worker, which never builds the padded batch). `out.relFloor` must be set already.
 */
export function measureCells(
  out: CellErrors,
  to: number,
  cells: Pick<CellErrorInput, "reference" | "actual" | "bound">,
  from: number,
  n: number,
  metric: ErrorMetric,
  precision: Precision,
): void {
  const { error, overBound, lost, unchecked, relFloor: floor } = out;
  const { reference, actual, bound } = cells;
  for (let k = 0; k < n; k++) {
    const ref = reference[from + k];
    const a = actual[from + k];
    const i = to + k;
    error[i] =
      metric === "abs" ? absError(ref, a) : metric === "rel" ? relError(ref, a, floor) : ulpDistance(ref, a, precision);
    if (!Number.isFinite(ref)) lost[i] = 1;
    else if (bound) {
      const verdict = boundVerdict(ref, a, bound[from + k]);
      if (verdict === BoundVerdict.over) overBound[i] = 1;
      else if (verdict === BoundVerdict.unchecked) unchecked[i] = 1;
    }
  }
}

/** What a cell's bound says of it: the heatmap's flags, its readout and errorSummary agree on this. */
export const BoundVerdict = { none: 0, within: 1, over: 2, unchecked: 3 } as const;
type BoundVerdictValue = (typeof BoundVerdict)[keyof typeof BoundVerdict];

/**
 * One cell against its bound. Only against a finite reference (a cell the reference lost has
 * nothing to be measured against): there NaN or ±Inf is infinitely wrong, over any bound; a finite
 * value is compared with a finite bound, and a bound of NaN or ±Inf checks nothing.
 */
export function boundVerdict(reference: number, actual: number, bound: number | undefined): BoundVerdictValue {
  if (bound === undefined || !Number.isFinite(reference)) return BoundVerdict.none;
  if (!Number.isFinite(actual)) return BoundVerdict.over;
  if (!Number.isFinite(bound)) return BoundVerdict.unchecked;
  return Math.abs(actual - reference) > bound ? BoundVerdict.over : BoundVerdict.within;
}

/** One cell's errors in all three measures, for the hover readout. */
export function cellReadout(reference: number, actual: number, precision: Precision, floor: number) {
  return {
    abs: absError(reference, actual),
    rel: relError(reference, actual, floor),
    ulp: ulpDistance(reference, actual, precision),
  };
}

/** Which side of a comparison lost a cell to NaN or ±Inf (no error figure can be measured there). */
export type CellLoss = "both" | "actual" | "reference";

/**
 * Null when both values are finite (then the error figures apply). Otherwise who lost the cell:
 * a NaN or an infinity on either side has no error in any measure that means something, and its
 * bound (itself often NaN there) neither passes nor fails it.
 */
export function cellLoss(reference: number, actual: number): CellLoss | null {
  const referenceLost = !Number.isFinite(reference);
  const actualLost = !Number.isFinite(actual);
  if (referenceLost && actualLost) return "both";
  if (actualLost) return "actual";
  if (referenceLost) return "reference";
  return null;
}

/** What the two sides are called in a readout and a legend: the serial reference and the chunked scan, or two libraries. */
export interface SideNames {
  /** In sentences: "the serial scan", "the chunked scan", or a library's name. */
  reference: string;
  actual: string;
  /** The two at once in a sentence ("both scans"); default "<reference> and <actual>". */
  both?: string;
  /** In the legend's formula, |actual − reference|; default the names above. */
  symbols?: { reference: string; actual: string };
  /** What |actual − reference| is: an error against the truth (default), or a difference between two libraries. */
  gap?: "error" | "difference";
}

export const SCAN_SIDES: SideNames = {
  reference: "the serial scan",
  actual: "the chunked scan",
  both: "both scans",
  symbols: { reference: "serial", actual: "chunked" },
};

/** Both sides at once, in a sentence. */
export function bothSides(sides: SideNames): string {
  return sides.both ?? `${sides.reference} and ${sides.actual}`;
}

/**
 * A lost cell in plain words, for hover readouts, instead of NaN printed as an error or a bound:
 * "not measured: both scans are NaN here", "over its bound: only the chunked scan lost this cell
 * (NaN; the serial scan has 0.5)". Equal infinities on both sides are lost by both too (they are 0 apart, but no
 * finite number was computed there).
 */
export function cellLossText(
  loss: CellLoss,
  reference: number,
  actual: number,
  sides: SideNames = SCAN_SIDES,
  format: (x: number, side: "reference" | "actual") => string = (x) => String(x),
): string {
  if (loss === "both") {
    const same = Object.is(reference, actual) || (Number.isNaN(reference) && Number.isNaN(actual));
    const what = same ? String(reference) : `${String(reference)} and ${String(actual)}`;
    return `not measured: ${bothSides(sides)} are ${what} here`;
  }
  const lost = loss === "actual" ? "actual" : "reference";
  const kept = loss === "actual" ? "reference" : "actual";
  const value = { reference, actual };
  // Against a finite truth, a non-finite result is an error over its bound; between two libraries
  // (a difference, not an error) or where the reference lost the cell, nothing is measured.
  const verdict = loss === "actual" && (sides.gap ?? "error") === "error" ? "over its bound" : "not measured";
  return `${verdict}: only ${sides[lost]} lost this cell (${String(value[lost])}; ${sides[kept]} has ${format(value[kept], kept)})`;
}
