/**
 * Helpers shared by the engine's tests (not imported by the engine itself): the cpu backend, and
 * re-exports of the project's seeded test data and float32 tolerance rule.
 */
import "@tensorflow/tfjs-backend-cpu";
import * as tf from "@tensorflow/tfjs-core";
import { scaleOf, uniformTolerance } from "../core";

export { maskWithHoles, normals, seededRandom as seeded } from "../core/testRandom";

/** Makes the cpu backend the active one (what the caller of runProblem is responsible for). */
export async function useCpuBackend(): Promise<void> {
  // IS_TEST silences tfjs's advice to install tfjs-node, which would clutter the test output.
  tf.env().set("IS_TEST", true);
  if (!(await tf.setBackend("cpu")) || tf.getBackend() !== "cpu") throw new Error("the tfjs cpu backend did not start");
}

/** The README's float32 rule `2e-6·scale·max(1, √T/16)`, scale = largest |input or expected|. */
export function float32Tolerance(longestRow: number, ...arrays: ArrayLike<number>[]): number {
  return uniformTolerance("float32", scaleOf(...arrays), longestRow);
}

/** Ragged rows laid end to end, for comparing a REINFORCE++ batch in one go. */
export function flat(rows: ArrayLike<number>[]): Float64Array {
  return Float64Array.from(rows.flatMap((row) => Array.from(row)));
}
