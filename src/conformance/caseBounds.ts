import { conventionErrorBounds, type Implementation, outputErrorBounds, type ScanAlgorithm } from "../core";
import type { ScanCase } from "../io/caseSchema";
import { caseToProblem } from "./caseProblem";
import { type CaseOutputs, pairOutputs } from "./outputs";

/**
 * Every output's per-element error bound for a case (docs/ERROR_BOUND.md), flattened and named
 * as `pairOutputs` names them, for an implementation in `precision` using `algorithm`.
 */
export function caseErrorBounds(
  c: ScanCase,
  precision: Implementation["precision"],
  algorithm: ScanAlgorithm,
): Map<string, ArrayLike<number>> {
  let bounds: CaseOutputs;
  if (c.kind === "convention") {
    const { inputs, params } = c;
    const batch = {
      rewards: inputs.rewards,
      kl: inputs.kl.map((row) => Float64Array.from(row)),
      lossMasks: inputs.loss_masks,
      values: inputs.values?.map((row) => Float64Array.from(row)),
    };
    const conventionParams = {
      gamma: params.gamma,
      lambd: params.lambd,
      klCoef: params.kl_coef,
      normalize: params.normalize,
      rewardClipRange: params.reward_clip_range,
    };
    const result = conventionErrorBounds(c.library, c.estimator, batch, conventionParams, precision);
    bounds = { kind: "convention", ...result };
  } else {
    bounds = outputErrorBounds(caseToProblem(c, "float64"), { precision, algorithm });
  }
  // pairOutputs names and flattens outputs the same way for bounds as for results.
  const named = pairOutputs(c, bounds, "expected");
  return new Map(named.map((pair) => [pair.name, pair.actual]));
}
