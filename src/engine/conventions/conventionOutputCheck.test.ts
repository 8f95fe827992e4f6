import { beforeAll, describe, expect, it } from "vitest";
import { type ConventionProblem, LIBRARIES } from "../../core";
import { seededRandom } from "../../core/seededRandom";
import { useCpuBackend } from "../../testing/engineTestKit";
import { EngineOutputError } from "../engineErrors";
import { checkConventionOutputs } from "./conventionOutputCheck";
import { prepareConvention } from "./prepareConvention";
import { runConventionProblem } from "./runConventionProblem";

beforeAll(useCpuBackend);

/** Three GAE sequences with holes in their masks, for one library. */
function gaeProblem(library: (typeof LIBRARIES)[number]): ConventionProblem<Float32Array> {
  const random = seededRandom(11);
  const lengths = [40, 25, 33];
  const row = (L: number) => Float32Array.from({ length: L }, () => 2 * random() - 1);
  return {
    library,
    estimator: "gae",
    batch: {
      rewards: lengths.map(() => 1),
      kl: lengths.map(row),
      values: lengths.map(row),
      lossMasks: lengths.map((L) => Array.from({ length: L }, (_, t) => (t % 7 === 3 ? 0 : 1))),
    },
    params: { gamma: 0.99, lambd: 0.95, klCoef: 0.1, normalize: false },
    chunkSize: 8,
  };
}

describe("the conventions' GAE output check", () => {
  for (const library of LIBRARIES) {
    it(`${library}: accepts the engine's result and names a sequence whose returns or advantages came back as zeros`, async () => {
      const problem = gaeProblem(library);
      const { result } = await runConventionProblem(problem, "chunked");
      const p = prepareConvention(problem);
      expect(() => checkConventionOutputs(p, "cpu", result, "chunked")).not.toThrow();
      for (const output of ["returns", "advantages"] as const) {
        const broken = { ...result, [output]: result[output].map((row, b) => (b === 1 ? row.map(() => 0) : row)) };
        expect(() => checkConventionOutputs(p, "cpu", broken, "chunked")).toThrow(EngineOutputError);
        expect(() => checkConventionOutputs(p, "cpu", broken, "chunked")).toThrow("sequence 1");
      }
    });
  }
});
