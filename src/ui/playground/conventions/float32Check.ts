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
  let maxAbs = 0;
  let overBound = 0;
  let worstFraction = 0;
  let cells = 0;
  let worst: Float32Check["worst"] = null;
  const nonFinite = { float64: 0, float32: 0, both: 0 };
  for (const output of CONVENTION_OUTPUTS) {
    const ref = reference[output];
    const act = float32[output];
    const b = bound[output];
    for (let row = 0; row < lengths.length; row++) {
      for (let token = 0; token < lengths[row]; token++) {
        const i = row * cols + token;
        const lost64 = !Number.isFinite(ref[i]);
        const lost32 = !Number.isFinite(act[i]);
        if (nonFiniteInputs && (lost64 || lost32)) {
          if (lost64) nonFinite.float64++;
          if (lost32) nonFinite.float32++;
          if (lost64 && lost32) nonFinite.both++;
          continue;
        }
        const error = Math.abs(act[i] - ref[i]);
        cells++;
        if (Number.isNaN(error)) {
          // From finite inputs a NaN is never right.
          maxAbs = Number.NaN;
          overBound++;
          worstFraction = Number.POSITIVE_INFINITY;
          worst = { output, row, token };
          continue;
        }
        if (error > maxAbs) {
          maxAbs = error;
          worst = { output, row, token };
        }
        if (!(error <= b[i])) overBound++;
        const fraction = b[i] > 0 ? error / b[i] : error > 0 ? Number.POSITIVE_INFINITY : 0;
        if (fraction > worstFraction) worstFraction = fraction;
      }
    }
  }
  return { maxAbs, overBound, worstFraction, cells, nonFinite, worst };
}
