import {
  type BatchedScanOrder,
  conventionErrorBounds,
  type Implementation,
  outputErrorBounds,
  type ScanAlgorithm,
} from "../core";
import type { ScanCase } from "../io/caseSchema";
import { caseToConventionProblem, caseToProblem } from "./caseProblem";
import { type CaseOutputs, pairOutputs } from "./outputs";

/**
 * Every output's per-element error bound for a case (docs/ERROR_BOUND.md), flattened and named
 * as `pairOutputs` names them, for an implementation in `precision` using `algorithm`; a
 * convention computed by batched scans (`order`) is bounded for those scans.
 */
export function caseErrorBounds(
  c: ScanCase,
  precision: Implementation["precision"],
  algorithm: ScanAlgorithm,
  order?: BatchedScanOrder,
): Map<string, ArrayLike<number>> {
  let bounds: CaseOutputs;
  if (c.kind === "convention") {
    const { library, estimator, batch, params } = caseToConventionProblem(c, "float64");
    const exact = { ...batch, kl: batch.kl as Float64Array[], values: batch.values as Float64Array[] | undefined };
    const result = conventionErrorBounds(library, estimator, exact, params, precision, order);
    bounds = { kind: "convention", ...result };
  } else {
    bounds = outputErrorBounds(caseToProblem(c, "float64"), { precision, algorithm });
  }
  // pairOutputs names and flattens outputs the same way for bounds as for results.
  const named = pairOutputs(c, bounds, "expected");
  return new Map(named.map((pair) => [pair.name, pair.actual]));
}
