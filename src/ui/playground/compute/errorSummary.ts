import { absError, relError, relFloor, ulpDistance } from "../../heatmap/cellErrors";
import type { OutputName, OutputTables } from "./outputTables";

/** The whole batch's error, chunked against the float64 serial reference, over every output. */
export interface ErrorSummary {
  maxAbs: number;
  maxRel: number;
  /** Largest distance in ulps of the chunked side's precision. */
  maxUlps: number;
  /** Cells over their per-element bound; null when no bound was given. */
  overBound: number | null;
  /** Cells compared (valid tokens × outputs). */
  cells: number;
  /** Where the largest absolute error is (first one on ties); null when no cell was compared. */
  worst: { output: OutputName; row: number; token: number } | null;
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
}

/**
 * Max abs, rel and ulp error over every valid token of every output (padding is not data), and
 * the count over the bound. A NaN anywhere makes the figure NaN: a broken result never looks small.
 */
export function summarizeErrors(input: SummaryInput): ErrorSummary {
  const { rows, cols, lengths, reference, chunked, bound, precision } = input;
  let maxAbs = 0;
  let maxRel = 0;
  let maxUlps = 0;
  let overBound = 0;
  let cells = 0;
  let worst: ErrorSummary["worst"] = null;
  for (const name of Object.keys(reference) as OutputName[]) {
    const ref = reference[name];
    const act = chunked[name];
    if (!ref || !act) continue;
    const limit = bound?.[name];
    const floor = relFloor(ref, precision);
    for (let r = 0; r < rows; r++) {
      const length = Math.min(cols, lengths[r]);
      for (let t = 0; t < length; t++) {
        const i = r * cols + t;
        const abs = absError(ref[i], act[i]);
        cells++;
        if (!(abs <= maxAbs) && !Number.isNaN(maxAbs)) {
          maxAbs = abs;
          worst = { output: name, row: r, token: t };
        }
        const rel = relError(ref[i], act[i], floor);
        if (!(rel <= maxRel) && !Number.isNaN(maxRel)) maxRel = rel;
        if (abs !== 0) {
          const ulps = ulpDistance(ref[i], act[i], precision);
          if (!(ulps <= maxUlps) && !Number.isNaN(maxUlps)) maxUlps = ulps;
        }
        if (limit && !(abs <= limit[i])) overBound++;
      }
    }
  }
  if (cells === 0) worst = null;
  return { maxAbs, maxRel, maxUlps, overBound: bound ? overBound : null, cells, worst };
}
