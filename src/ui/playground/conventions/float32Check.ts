import { CONVENTION_OUTPUTS, type ConventionOutput, type ConventionTables } from "./conventionRun";

/** How the float32 run of the library shown compares with its float64 reference, element by element. */
export interface Float32Check {
  /** Largest |float32 − float64| over every valid token of every output (NaN if any value is NaN). */
  maxAbs: number;
  /** Elements over their own bound. */
  overBound: number;
  /** The worst error as a fraction of its element's bound (pass ≤ 1). */
  worstFraction: number;
  /** Elements compared (valid tokens × outputs). */
  cells: number;
  worst: { output: ConventionOutput; row: number; token: number } | null;
}

/**
 * Every valid token of every output, judged against its own bound (core's conventionErrorBounds
 * for a float32 run): the verdict shown beside the conventions is computed here, from the numbers
 * of this run, never assumed.
 */
export function checkFloat32(
  reference: ConventionTables,
  float32: ConventionTables<Float32Array | Float64Array>,
  bound: ConventionTables,
  lengths: ArrayLike<number>,
  cols: number,
): Float32Check {
  let maxAbs = 0;
  let overBound = 0;
  let worstFraction = 0;
  let cells = 0;
  let worst: Float32Check["worst"] = null;
  for (const output of CONVENTION_OUTPUTS) {
    const ref = reference[output];
    const act = float32[output];
    const b = bound[output];
    for (let row = 0; row < lengths.length; row++) {
      for (let token = 0; token < lengths[row]; token++) {
        const i = row * cols + token;
        const error = Math.abs(act[i] - ref[i]);
        cells++;
        if (Number.isNaN(error)) {
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
  return { maxAbs, overBound, worstFraction, cells, worst };
}
