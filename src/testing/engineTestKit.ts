/**
 * Helpers shared by the engine's tests (not imported by the engine itself): the cpu backend, and
 * re-exports of the project's seeded test data, and the per-element error bound as an assertion.
 */
import "@tensorflow/tfjs-backend-cpu";
import * as tf from "@tensorflow/tfjs-core";
import { expect } from "vitest";
import { outputErrorBounds, type ScanOutputs, type ScanProblem } from "../core";
import { STRATEGY_ALGORITHM, type Strategy } from "../names/strategies";

export { maskWithHoles, normals, seededRandom as seeded } from "../core/testRandom";

/** Makes the cpu backend the active one (what the caller of runProblem is responsible for). */
export async function useCpuBackend(): Promise<void> {
  // IS_TEST silences tfjs's advice to install tfjs-node, which would clutter the test output.
  tf.env().set("IS_TEST", true);
  if (!(await tf.setBackend("cpu")) || tf.getBackend() !== "cpu") throw new Error("the tfjs cpu backend did not start");
}

/**
 * Every output element within the float32 error bound of the strategy's algorithm
 * (docs/ERROR_BOUND.md) of the float64 serial truth; returns the worst error as a fraction of its bound.
 */
export function expectWithinBound(
  problem: ScanProblem,
  strategy: Strategy,
  actual: ScanOutputs,
  truth: ScanOutputs,
): number {
  const bounds = namedArrays(
    outputErrorBounds(problem, { precision: "float32", algorithm: STRATEGY_ALGORITHM[strategy] }),
  );
  const expected = namedArrays(truth);
  const got = namedArrays(actual);
  let worst = 0;
  for (const [name, reference] of Object.entries(expected)) {
    expect(got[name]?.length, name).toBe(reference.length);
    for (let i = 0; i < reference.length; i++) {
      const error = Math.abs(got[name][i] - reference[i]);
      if (!(error <= bounds[name][i])) {
        expect.fail(`${strategy} ${name}[${i}]: ${got[name][i]} vs ${reference[i]}, bound ${bounds[name][i]}`);
      }
      worst = Math.max(worst, error / bounds[name][i]);
    }
  }
  return worst;
}

/**
 * For intermediates (local scans, carries) of two float32 runs of the same algorithm, which have no
 * float64 truth of their own: `2e-6·scale·max(1, √T/16)`, scale = the largest magnitude involved.
 * Outputs are held to their per-element bound instead (expectWithinBound).
 */
export function intermediateTolerance(longestRow: number, ...arrays: ArrayLike<number>[]): number {
  let scale = 0;
  for (const values of arrays) for (let i = 0; i < values.length; i++) scale = Math.max(scale, Math.abs(values[i]));
  return Math.max(2e-6 * scale * Math.max(1, Math.sqrt(longestRow) / 16), 8 * 2 ** -149);
}

/** An estimator's outputs as flat named arrays (ragged rows laid end to end). */
export function namedArrays(o: ScanOutputs): Record<string, ArrayLike<number>> {
  switch (o.kind) {
    case "discounted":
      return { returns: o.returns };
    case "gae":
      return { advantages: o.advantages, returns: o.returns };
    case "reinforce_pp":
      return { returns: flat(o.returns), tokenLevelRewards: flat(o.tokenLevelRewards) };
  }
}

/** Ragged rows laid end to end, for comparing a REINFORCE++ batch in one go. */
export function flat(rows: ArrayLike<number>[]): Float64Array {
  return Float64Array.from(rows.flatMap((row) => Array.from(row)));
}
