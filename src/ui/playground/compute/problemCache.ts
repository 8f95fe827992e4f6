import type { FloatArray, ScanProblem } from "../../../core";
import { stateToProblem } from "../../../io/playgroundProblem";
import type { Estimator, PlaygroundRow, PlaygroundState } from "../../../io/playgroundState";

/**
 * The float64 and float32 problems of a state. Building the input arrays from the rows is the
 * costly part (tens of ms at 16 × 8192), and a γ, λ, β or chunk-size change leaves them as they
 * were: they are built once per rows array and estimator, and the parameters set on each call.
 * The float32 problem is the float64 one's arrays converted (the inputs are float32 values already).
 */
interface Inputs {
  estimator: Estimator;
  p64: ScanProblem;
  p32: ScanProblem;
}

const cache = new WeakMap<PlaygroundRow[], Inputs>();

export function problemsFor(state: PlaygroundState, rows: PlaygroundRow[]): { p64: ScanProblem; p32: ScanProblem } {
  let inputs = cache.get(rows);
  if (!inputs || inputs.estimator !== state.estimator) {
    const p64 = stateToProblem(state, "float64", rows);
    inputs = { estimator: state.estimator, p64, p32: toFloat32(p64) };
    cache.set(rows, inputs);
  }
  return { p64: withParams(inputs.p64, state), p32: withParams(inputs.p32, state) };
}

function withParams(problem: ScanProblem, state: PlaygroundState): ScanProblem {
  const { gamma, lambd, klCoef, chunkSize } = state;
  switch (problem.kind) {
    case "discounted":
      return { ...problem, discount: gamma, chunkSize };
    case "gae":
      return { ...problem, gamma, lambd, chunkSize };
    case "reinforce_pp":
      return { ...problem, gamma, klCoef, chunkSize };
  }
}

function toFloat32(problem: ScanProblem): ScanProblem {
  const f32 = (a: FloatArray) => Float32Array.from(a);
  switch (problem.kind) {
    case "discounted":
      return { ...problem, rewards: { ...problem.rewards, data: f32(problem.rewards.data) } };
    case "gae":
      return {
        ...problem,
        rewards: { ...problem.rewards, data: f32(problem.rewards.data) },
        values: { ...problem.values, data: f32(problem.values.data) },
      };
    case "reinforce_pp":
      return { ...problem, batch: { ...problem.batch, kl: problem.batch.kl.map(f32) } };
  }
}
