import { describe, expect, it } from "vitest";
import { maxAbsError } from "../errorMetrics";
import { maskWithHoles, normals, seededRandom } from "../testRandom";
import { allowingNonFinite, ScanInputError } from "../validation";
import { runConvention } from "./runConvention";
import type { ConventionBatch } from "./types";

function batchOf(seed: number, lengths: number[]): ConventionBatch<Float64Array> {
  const random = seededRandom(seed);
  const lossMasks = lengths.map((L) => maskWithHoles(random, L));
  // The identities below need the last token unmasked.
  for (const mask of lossMasks) mask[mask.length - 1] = 1;
  return {
    rewards: lengths.map(() => Math.fround(random() * 4 - 2)),
    kl: lengths.map((L) => normals(random, L, 0.1)),
    lossMasks,
    values: lengths.map((L) => normals(random, L)),
  };
}

const maskedTokens = (rows: ArrayLike<number>[], masks: ArrayLike<number>[]) =>
  rows.flatMap((row, i) => Array.from(row).filter((_, t) => masks[i][t] === 1));

describe("library conventions: the identities of the cases README", () => {
  const batch = batchOf(5, [37, 130, 5, 64]);

  it("slime and OpenRLHF REINFORCE++ returns agree when β ≥ 0 and R is inside the clip range", () => {
    const params = { gamma: 0.99, klCoef: 0.05, normalize: false, rewardClipRange: [-10, 10] as const };
    const slime = runConvention("slime", "reinforce_pp", batch, params);
    const openrlhf = runConvention("openrlhf", "reinforce_pp", batch, params);
    slime.returns.forEach((row, i) => {
      expect(maxAbsError(row, openrlhf.returns[i])).toBeLessThan(1e-12);
    });
  });

  it("OpenRLHF and verl GAE agree on mask-1 tokens for γ = λ = 1", () => {
    const params = { gamma: 1, lambd: 1, klCoef: 0.05, normalize: false, rewardClipRange: null };
    const openrlhf = runConvention("openrlhf", "gae", batch, params);
    const verl = runConvention("verl", "gae", batch, params);
    const a = maskedTokens(openrlhf.advantages, batch.lossMasks);
    const b = maskedTokens(verl.advantages, batch.lossMasks);
    expect(maxAbsError(a, b)).toBeLessThan(1e-12);
  });

  it("verl cuts the REINFORCE++ carry at a hole (the hole keeps its own return); slime carries it through", () => {
    const hole = { rewards: [1], kl: [new Float64Array(5)], lossMasks: [[1, 1, 0, 1, 1]] };
    const params = { gamma: 1, klCoef: 0, normalize: false };
    expect(Array.from(runConvention("slime", "reinforce_pp", hole, params).returns[0])).toEqual([1, 1, 1, 1, 1]);
    expect(Array.from(runConvention("verl", "reinforce_pp", hole, params).returns[0])).toEqual([0, 0, 1, 1, 1]);
  });

  it("whitened advantages have zero mean and unit variance over mask-1 tokens", () => {
    for (const library of ["slime", "openrlhf", "verl"] as const) {
      const result = runConvention(library, "reinforce_pp", batch, { gamma: 0.99, klCoef: 0.05, normalize: true });
      const a = maskedTokens(result.advantages, batch.lossMasks);
      const mean = a.reduce((s, x) => s + x, 0) / a.length;
      expect(Math.abs(mean)).toBeLessThan(1e-9);
      const variance = a.reduce((s, x) => s + (x - mean) ** 2, 0) / (a.length - 1);
      expect(variance).toBeCloseTo(library === "openrlhf" ? a.length / (a.length - 1) : 1, 6);
    }
  });

  it("rejects what each library rejects, with a clear message", () => {
    const empty = { rewards: [1], kl: [Float64Array.of(0.1)], lossMasks: [[0]] };
    expect(() => runConvention("slime", "reinforce_pp", empty, { gamma: 1, klCoef: 0.1, normalize: false })).toThrow(
      "Sequence at index 0 is fully masked.",
    );
    const single = { rewards: [1], kl: [Float64Array.of(0.1)], lossMasks: [[1]] };
    expect(() => runConvention("verl", "reinforce_pp", single, { gamma: 1, klCoef: 0.1, normalize: true })).toThrow(
      new ScanInputError("at least 2 valid tokens are needed to whiten advantages, got 1"),
    );
    expect(() => runConvention("slime", "gae", single, { gamma: 1, lambd: 1, klCoef: 0.1, normalize: false })).toThrow(
      "GAE needs values for each of the 1 sequences, got 0",
    );
  });
});

describe("NaN and ±Inf in a convention's inputs", () => {
  it("are refused by default and run when the caller opts in, outcome rewards included", () => {
    const batch: ConventionBatch<Float64Array> = {
      rewards: [Number.NaN, 1],
      kl: [new Float64Array(4), Float64Array.from([0, Number.POSITIVE_INFINITY, 0, 0])],
      lossMasks: [
        [1, 1, 1, 1],
        [1, 0, 1, 1],
      ],
    };
    const params = { gamma: 0.9, klCoef: 0.1, normalize: false };
    expect(() => runConvention("verl", "reinforce_pp", batch, params)).toThrow(ScanInputError);
    const { returns } = allowingNonFinite(() => runConvention("verl", "reinforce_pp", batch, params));
    // verl puts the outcome on the last token; its loop carries NaN back through every token.
    expect(Array.from(returns[0]).every(Number.isNaN)).toBe(true);
    // -β·(∞·0) at the hole is NaN, and verl's carry·mask keeps it (NaN·0 = NaN): tokens 0–1 are lost.
    expect(returns[1].slice(0, 2).every(Number.isNaN)).toBe(true);
    expect(Array.from(returns[1].slice(2))).toEqual([0.9, 1]);
  });
});
