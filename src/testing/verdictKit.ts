import type { CaseOutputs } from "../conformance/outputs";
import type { ScanProblem } from "../core";

/** Test support for the verdict tests: a one-row returns problem, and solvers that answer what they are told. */

/** Discounted returns of one row of rewards (float64, as a case file holds them). */
export function oneRowReturns(rewards: number[], discount: number, chunkSize = 128): ScanProblem {
  return {
    kind: "discounted",
    rewards: { rows: 1, cols: rewards.length, data: Float64Array.from(rewards) },
    discount,
    chunkSize,
  };
}

/** A solver that answers with fixed returns: what a wrong implementation would report. */
export const answering = (returns: number[]) => (): CaseOutputs => ({
  kind: "discounted",
  returns: Float64Array.from(returns),
});
