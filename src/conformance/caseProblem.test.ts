import { describe, expect, it } from "vitest";
import { buildCase } from "../io/caseBuilder";
import type { ScanCase } from "../io/caseSchema";
import { caseToProblem, FLOAT32_MAX, Float32OverflowError } from "./caseProblem";
import { checkCase } from "./checkCase";
import { coreSolver } from "./coreSolvers";

const discounted = () =>
  buildCase(
    {
      kind: "discounted",
      rewards: { rows: 2, cols: 3, data: Float64Array.of(1, 2, 3, 4, 5, 6) },
      discount: 0.5,
      chunkSize: 2,
    },
    "small",
  ) as Extract<ScanCase, { kind: "discounted" }>;

const ragged = () =>
  buildCase(
    {
      kind: "reinforce_pp",
      batch: { rewards: [1, 2], kl: [Float64Array.of(0.1, 0.2), Float64Array.of(0.3)], lossMasks: [[1, 1], [1]] },
      klCoef: 0.1,
      gamma: 0.9,
      chunkSize: 128,
    },
    "ragged",
  ) as Extract<ScanCase, { kind: "reinforce_pp" }>;

function overflowMessage(c: ScanCase): string {
  try {
    caseToProblem(c, "float32");
  } catch (error) {
    expect(error).toBeInstanceOf(Float32OverflowError);
    return (error as Error).message;
  }
  throw new Error("expected a Float32OverflowError");
}

describe("a float32 problem from a case", () => {
  it("names an input float32 cannot hold, with its row and token, instead of a non-finite value", () => {
    const c = discounted();
    c.inputs.rewards[4] = 1e308;
    expect(overflowMessage(c)).toBe(
      "inputs.rewards[4] (row 1, token 1): 1e+308 overflows float32 (largest finite 3.4028235e+38)",
    );
    expect(() => caseToProblem(c, "float64")).not.toThrow();
  });

  it("names ragged elements, outcome rewards and parameters too", () => {
    const kl = ragged();
    kl.inputs.kl[1][0] = -4e38;
    expect(overflowMessage(kl)).toMatch(/^inputs\.kl\[1\]\[0\]: -4e\+38 overflows float32/);
    const reward = ragged();
    reward.inputs.rewards[1] = 1e39;
    expect(overflowMessage(reward)).toMatch(/^inputs\.rewards\[1\]: 1e\+39 overflows float32/);
    const param = ragged();
    param.params.kl_coef = 1e300;
    expect(overflowMessage(param)).toMatch(/^params\.kl_coef: 1e\+300 overflows float32/);
  });

  it("accepts the largest float32 and values that round down to it", () => {
    const c = discounted();
    c.inputs.rewards[0] = FLOAT32_MAX;
    c.inputs.rewards[1] = -3.4028235e38;
    expect(() => caseToProblem(c, "float32")).not.toThrow();
  });

  it("fails the case in float32 modes with that message; float64 still runs it", async () => {
    const c = discounted();
    c.inputs.rewards[2] = 1e308;
    const verdict = await checkCase(c, coreSolver("float32"), "float32");
    expect(verdict).toMatchObject({ passed: false, detail: expect.stringContaining("1e+308 overflows float32") });
    const float64 = await checkCase(c, coreSolver("float64"), "float64");
    expect(float64.detail).not.toContain("overflows");
  });
});
