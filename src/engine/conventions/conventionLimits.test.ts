import { describe, expect, it } from "vitest";
import type { ConventionProblem } from "../../core";
import { formatCount, hostCapacity } from "../backendCapacity";
import { EngineLimitError } from "../engineErrors";
import { prepareConvention } from "./prepareConvention";
import { checkConventionLimits } from "./runConventionProblem";

/** A cpu-like budget of `values` float32 values per tensor. */
const capacity = (values: number) => ({
  ...hostCapacity("cpu"),
  maxTensorValues: values,
  tensorLimit: "the test allows at most a few values",
});

function problem(library: "slime" | "verl", mask: number[], normalize = false): ConventionProblem {
  return {
    library,
    estimator: "reinforce_pp",
    batch: { rewards: [1], kl: [new Float32Array(mask.length)], lossMasks: [mask] },
    params: { gamma: 0.99, klCoef: 0.1, normalize },
    chunkSize: 4,
  };
}

describe("convention limits, checked before any tensor exists", () => {
  it("verl's cut segments are grouped by width, under twice the tokens, and refused by their total when it does not fit", () => {
    // Every tenth token starts a hole of two: segments of 1 and 9 tokens, scanned in widths 1 and 16.
    const mask = Array.from({ length: 600 }, (_, t) => (t > 1 && t % 10 < 2 ? 0 : 1));
    const p = prepareConvention(problem("verl", mask));
    const layouts = checkConventionLimits(p, "chunked", capacity(2000));
    const values = (layouts.segments?.gatheredValues ?? 0) + 1;
    expect(layouts.segments?.groups.map((g) => g.width)).toEqual([1, 16]);
    expect(values).toBeLessThan(2 * 600);
    const refused = () => checkConventionLimits(p, "chunked", capacity(values - 1));
    expect(refused).toThrow(EngineLimitError);
    expect(refused).toThrow(
      `the 1×600 batch needs its 2 groups of cut segments (verl) laid end to end of ${formatCount(values)} float32 values`,
    );
  });

  it("the whitening's pairwise sum pads to a power of two, and says so when that does not fit", () => {
    const mask = new Array<number>(600).fill(1);
    expect(() =>
      checkConventionLimits(prepareConvention(problem("slime", mask, true)), "chunked", capacity(1000)),
    ).toThrow("needs a pairwise sum for the whitening of 1,024 float32 values (4 KiB)");
    expect(checkConventionLimits(prepareConvention(problem("slime", mask, false)), "chunked", capacity(1000))).toEqual(
      {},
    );
  });
});
