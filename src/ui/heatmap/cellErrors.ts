/**
 * Error of one chunked value against the float64 serial reference, in three measures: absolute,
 * relative and units in the last place. Non-finite values never compare as small: a NaN anywhere
 * gives NaN, an infinity against a finite value gives Infinity, equal infinities give 0.
 */

export type ErrorMetric = "abs" | "rel" | "ulp";
export type Precision = "float32" | "float64";

const scratch = new DataView(new ArrayBuffer(8));

/** The float64 bit pattern as an integer that orders like the values (−0 and +0 both map to 0). */
function ordered64(x: number): bigint {
  scratch.setFloat64(0, x);
  const bits = scratch.getBigInt64(0);
  return bits < 0n ? -(bits & 0x7fffffffffffffffn) : bits;
}

/** The float32 bit pattern (after rounding to float32) as an integer that orders like the values. */
function ordered32(x: number): number {
  scratch.setFloat32(0, x);
  const bits = scratch.getInt32(0);
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
  const special = nonFiniteDistance(a, b);
  if (special !== undefined) return special;
  if (precision === "float32") {
    const fa = Math.fround(a);
    const fb = Math.fround(b);
    const overflow = nonFiniteDistance(fa, fb);
    if (overflow !== undefined) return overflow;
    return Math.abs(ordered32(fa) - ordered32(fb));
  }
  const d = ordered64(a) - ordered64(b);
  return Number(d < 0n ? -d : d);
}

/** |actual − reference|, with equal infinities at distance 0. */
export function absError(reference: number, actual: number): number {
  return nonFiniteDistance(reference, actual) ?? Math.abs(actual - reference);
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
  /** 1 where |actual − reference| > bound (or is not finite while the bound is). */
  overBound: Uint8Array;
  /** The relative error's denominator floor used (see relFloor). */
  relFloor: number;
}

export function cellErrors(input: CellErrorInput): CellErrors {
  const { rows, cols, lengths, reference, actual, bound, metric, precision } = input;
  const n = rows * cols;
  if (reference.length < n || actual.length < n) {
    throw new Error(`heatmap data has ${Math.min(reference.length, actual.length)} values, expected ${rows}×${cols}`);
  }
  const error = new Float64Array(n);
  const overBound = new Uint8Array(n);
  const floor = relFloor(reference, precision);
  for (let r = 0; r < rows; r++) {
    const length = Math.min(cols, lengths[r] ?? cols);
    for (let t = 0; t < length; t++) {
      const i = r * cols + t;
      const ref = reference[i];
      const act = actual[i];
      const abs = absError(ref, act);
      if (bound && !(abs <= bound[i])) overBound[i] = 1;
      error[i] =
        metric === "abs" ? abs : metric === "rel" ? relError(ref, act, floor) : ulpDistance(ref, act, precision);
    }
  }
  return { error, overBound, relFloor: floor };
}

/** One cell's errors in all three measures, for the hover readout. */
export function cellReadout(reference: number, actual: number, precision: Precision, floor: number) {
  return {
    abs: absError(reference, actual),
    rel: relError(reference, actual, floor),
    ulp: ulpDistance(reference, actual, precision),
  };
}
