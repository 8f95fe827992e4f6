import * as tf from "@tensorflow/tfjs-core";
import "@tensorflow/tfjs-backend-cpu";
import { type CaseSolver, caseToConventionProblem, caseToProblem } from "../conformance";
import { runConventionProblem } from "../engine/conventions/runConventionProblem";
import { runProblem } from "../engine/runProblem";
import { STRATEGY_ALGORITHM, type Strategy } from "../names/strategies";

/**
 * The TensorFlow.js engine on its pure-JS cpu backend, the one that runs in Node without native
 * code. Library-convention cases run on the engine too, and say how (their bound follows the
 * engine's batched scans).
 */
export async function tfjsCpuSolver(strategy: Strategy): Promise<CaseSolver> {
  // IS_TEST silences tfjs's advice to install tfjs-node, which would clutter the report.
  tf.env().set("IS_TEST", true);
  if (!(await tf.setBackend("cpu")) || tf.getBackend() !== "cpu") {
    throw new Error("the tfjs cpu backend did not start");
  }
  return async (c) => {
    if (c.kind !== "convention") return (await runProblem(caseToProblem(c, "float32"), strategy)).outputs;
    const problem = caseToConventionProblem(c, "float32");
    const { result } = await runConventionProblem(problem, strategy);
    const order = { algorithm: STRATEGY_ALGORITHM[strategy], chunkSize: problem.chunkSize };
    return { kind: "convention", ...result, order };
  };
}
