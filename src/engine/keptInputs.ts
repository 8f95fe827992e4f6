import type { ScanProblem } from "../core";

/**
 * A γ, λ, β or chunk-size edit leaves a run's input arrays as they were (problemCache.ts builds them
 * once per rows array): the page then sends the playground worker and the engine worker the new
 * parameters only, and each runs them on the arrays of its last run. Copying, transferring and
 * converting 1.5 MB of unchanged inputs at 16 × 8192 cost the page's edit task and the workers each
 * a fresh table to fault in, on the path to the result (docs/benchmarks.md, `pghop`, `gammaedit`).
 */

/** The arrays that hold a problem's inputs: two problems with the same ones have the same inputs. */
export function inputArrays(problem: ScanProblem): readonly unknown[] {
  switch (problem.kind) {
    case "discounted":
      return [problem.rewards.data];
    case "gae":
      return [problem.rewards.data, problem.values.data];
    case "reinforce_pp":
      return [problem.batch.rewards, problem.batch.kl, problem.batch.lossMasks];
  }
}

/** Whether two problems are of the very same input arrays (their parameters may differ). */
export function sameInputs(a: ScanProblem, b: ScanProblem): boolean {
  if (a.kind !== b.kind) return false;
  const x = inputArrays(a);
  const y = inputArrays(b);
  return x.every((array, i) => array === y[i]);
}

/** The problem's parameters and shape with empty input arrays: what is sent when the worker has them. */
export function withoutInputs(problem: ScanProblem): ScanProblem {
  switch (problem.kind) {
    case "discounted":
      return { ...problem, rewards: { ...problem.rewards, data: new Float64Array(0) } };
    case "gae":
      return {
        ...problem,
        rewards: { ...problem.rewards, data: new Float64Array(0) },
        values: { ...problem.values, data: new Float64Array(0) },
      };
    case "reinforce_pp":
      return { ...problem, batch: { rewards: [], kl: [], lossMasks: [] } };
  }
}

/** The parameters of `params` on the input arrays of `inputs` (a problem of the same kind and shape). */
export function withInputs(params: ScanProblem, inputs: ScanProblem): ScanProblem {
  if (params.kind === "discounted" && inputs.kind === "discounted") return { ...params, rewards: inputs.rewards };
  if (params.kind === "gae" && inputs.kind === "gae")
    return { ...params, rewards: inputs.rewards, values: inputs.values };
  if (params.kind === "reinforce_pp" && inputs.kind === "reinforce_pp") return { ...params, batch: inputs.batch };
  throw new Error(`kept inputs of a ${inputs.kind} run for a ${params.kind} run`);
}

/**
 * How a run's inputs reach the engine worker: sent and kept there for later runs ("keep"), or sent
 * empty, to run on the ones kept ("kept").
 */
export type InputsSent = "keep" | "kept";
