import { CONVENTION_OUTPUTS, type ConventionOutput, type ConventionTables } from "./conventionRun";

/** How the float32 run of the library shown compares with its float64 reference, element by element. */
export interface Float32Check {
  /** Largest |float32 − float64| over every valid token of every output where both are finite. */
  maxAbs: number;
  /** Elements over their own bound. */
  overBound: number;
  /** The worst error as a fraction of its element's bound (pass ≤ 1). */
  worstFraction: number;
  /** Elements compared: valid tokens × outputs, where both runs computed a finite value. */
  cells: number;
  /**
   * Elements left out because NaN or ±Inf took them (from non-finite inputs): non-finite in the
   * float64 reference, in the float32 run, and in both. No error is measured there.
   */
  nonFinite: { float64: number; float32: number; both: number };
  worst: { output: ConventionOutput; row: number; token: number } | null;
}

/**
 * Every valid token of every output, judged against its own bound (core's conventionErrorBounds
 * for a float32 run): the verdict shown beside the conventions is computed here, from the numbers
 * of this run, never assumed. With NaN or ±Inf in the inputs, the elements they took on either side
 * are counted apart, not judged: where they reach differs between the libraries' loops and the
 * engine's scans (and the engine checks its own outputs against that reach).
 */
export function checkFloat32(
  reference: ConventionTables,
  float32: ConventionTables<Float32Array | Float64Array>,
  bound: ConventionTables,
  lengths: ArrayLike<number>,
  cols: number,
  /** The inputs hold NaN or ±Inf: leave the elements they took out. Otherwise a non-finite value is an error. */
  nonFiniteInputs = false,
): Float32Check {
  const check: Float32Check = {
    maxAbs: 0,
    overBound: 0,
    worstFraction: 0,
    cells: 0,
    nonFinite: { float64: 0, float32: 0, both: 0 },
    worst: null,
  };
  for (const output of CONVENTION_OUTPUTS) {
    for (let row = 0; row < lengths.length; row++) {
      const start = row * cols;
      const slice = { output, row, start, length: lengths[row] };
      judgeRow(check, slice, reference[output], float32[output], bound[output], nonFiniteInputs);
    }
  }
  return check;
}

/**
 * One row of one output, added to `check`: a per-row function, not an inner loop (see README,
 * "Inner loops").
 */
function judgeRow(
  check: Float32Check,
  slice: { output: ConventionOutput; row: number; start: number; length: number },
  ref: ArrayLike<number>,
  act: ArrayLike<number>,
  b: ArrayLike<number>,
  nonFiniteInputs: boolean,
): void {
  const { nonFinite } = check;
  for (let token = 0; token < slice.length; token++) {
    const i = slice.start + token;
    const lost64 = !Number.isFinite(ref[i]);
    const lost32 = !Number.isFinite(act[i]);
    if (nonFiniteInputs && (lost64 || lost32)) {
      if (lost64) nonFinite.float64++;
      if (lost32) nonFinite.float32++;
      if (lost64 && lost32) nonFinite.both++;
      continue;
    }
    const error = Math.abs(act[i] - ref[i]);
    check.cells++;
    if (Number.isNaN(error)) {
      // From finite inputs a NaN is never right.
      check.maxAbs = Number.NaN;
      check.overBound++;
      check.worstFraction = Number.POSITIVE_INFINITY;
      check.worst = { output: slice.output, row: slice.row, token };
      continue;
    }
    if (error > check.maxAbs) {
      check.maxAbs = error;
      check.worst = { output: slice.output, row: slice.row, token };
    }
    if (!(error <= b[i])) check.overBound++;
    const fraction = b[i] > 0 ? error / b[i] : error > 0 ? Number.POSITIVE_INFINITY : 0;
    if (fraction > check.worstFraction) check.worstFraction = fraction;
  }
}
