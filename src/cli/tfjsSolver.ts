import * as tf from "@tensorflow/tfjs-core";
import "@tensorflow/tfjs-backend-cpu";
import { type CaseSolver, caseToProblem } from "../conformance";
import { runProblem } from "../engine/runProblem";
import type { Strategy } from "../engine/strategy";

/** The TensorFlow.js engine on its pure-JS cpu backend, the one that runs in Node without native code. */
export async function tfjsCpuSolver(strategy: Strategy): Promise<CaseSolver> {
  // Production mode silences tfjs's "install tfjs-node" advice, which would clutter the report.
  tf.enableProdMode();
  if (!(await tf.setBackend("cpu")) || tf.getBackend() !== "cpu") {
    throw new Error("the tfjs cpu backend did not start");
  }
  return async (c) => (await runProblem(caseToProblem(c, "float32"), strategy)).outputs;
}
