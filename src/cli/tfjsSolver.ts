import * as tf from "@tensorflow/tfjs-core";
import "@tensorflow/tfjs-backend-cpu";
import { type CaseSolver, caseToProblem } from "../conformance";
import { runProblem } from "../engine/runProblem";
import type { Strategy } from "../engine/strategy";

/** The TensorFlow.js engine on its pure-JS cpu backend, the one that runs in Node without native code. */
export async function tfjsCpuSolver(strategy: Strategy): Promise<CaseSolver> {
  // IS_TEST silences tfjs's advice to install tfjs-node, which would clutter the report.
  tf.env().set("IS_TEST", true);
  if (!(await tf.setBackend("cpu")) || tf.getBackend() !== "cpu") {
    throw new Error("the tfjs cpu backend did not start");
  }
  return async (c) => (await runProblem(caseToProblem(c, "float32"), strategy)).outputs;
}
