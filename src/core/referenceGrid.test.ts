import { describe, expect, it } from "vitest";
import { arrayOf, type Batch, type Precision } from "./batch";
import { chunkedDiscountedReturns } from "./chunkedScan";
import { chunkedGae, tdResiduals, vanillaGae } from "./gae";
import { outputErrorBounds } from "./outputBounds";
import type { ScanProblem } from "./problem";
import { reinforcePPReturns, serialReinforcePPReturns } from "./reinforcePP";
import { serialDiscountedReturns } from "./serialScan";
import { boundFraction } from "./testBounds";
import { maskWithHoles, normals, seededRandom } from "./testRandom";

/** slime's tests/test_discounted_returns.py, every element held to its error bound (docs/ERROR_BOUND.md). */
function randomBatch(rows: number, cols: number, seed: number): Batch<Float64Array> {
  return { rows, cols, data: normals(seededRandom(seed), rows * cols) };
}

function returnsBound(problem: ScanProblem, precision: Precision): Float64Array {
  const bounds = outputErrorBounds(problem, { precision, algorithm: "chunked" });
  if (bounds.kind !== "discounted") throw new Error("expected returns bounds");
  return bounds.returns;
}

function asFloat32(x: Batch): Batch<Float32Array> {
  return { rows: x.rows, cols: x.cols, data: Float32Array.from(x.data) };
}

describe("chunked_discounted_returns matches the serial loop (slime's grid)", () => {
  for (const discount of [0, 0.5, 0.99, 1]) {
    for (const [B, T] of [
      [1, 1],
      [3, 127],
      [3, 128],
      [3, 129],
      [3, 1000],
    ]) {
      it(`d = ${discount}, B = ${B}, T = ${T}`, () => {
        const rewards = randomBatch(B, T, 1000 * discount + T);
        const truth = serialDiscountedReturns(rewards, discount).data;
        const bound = (precision: Precision) =>
          returnsBound({ kind: "discounted", rewards, discount, chunkSize: 128 }, precision);

        const f64 = chunkedDiscountedReturns(rewards, discount).returns;
        expect(f64.data).toBeInstanceOf(Float64Array);
        expect(boundFraction(f64.data, truth, bound("float64"))).toBeLessThanOrEqual(1);

        // float32 in, float32 out, every element within its bound of the float64 truth.
        const f32 = chunkedDiscountedReturns(asFloat32(rewards), discount).returns;
        expect(f32.data).toBeInstanceOf(Float32Array);
        expect(boundFraction(f32.data, truth, bound("float32"))).toBeLessThanOrEqual(1);
      });
    }
  }

  it("keeps right padding exactly zero and leaves the real tokens as if unpadded", () => {
    const lengths = [3, 129, 511];
    const T = Math.max(...lengths);
    const random = seededRandom(7);
    for (const precision of ["float32", "float64"] as const) {
      const padded = arrayOf(precision, lengths.length * T);
      lengths.forEach((L, b) => {
        padded.set(normals(random, L), b * T);
      });
      const { returns } = chunkedDiscountedReturns({ rows: lengths.length, cols: T, data: padded }, 0.99);
      lengths.forEach((L, b) => {
        const row = returns.data.subarray(b * T, (b + 1) * T);
        expect(Array.from(row.subarray(L)).every((g) => g === 0)).toBe(true);
        const rewards = { rows: 1, cols: L, data: Float64Array.from(padded.subarray(b * T, b * T + L)) };
        const alone = serialDiscountedReturns(rewards, 0.99).data;
        const bound = returnsBound({ kind: "discounted", rewards, discount: 0.99, chunkSize: 128 }, precision);
        expect(boundFraction(row.subarray(0, L), alone, bound)).toBeLessThanOrEqual(1);
      });
    }
  });

  it("handles T = 0 with an empty result", () => {
    const { returns, trace } = chunkedDiscountedReturns({ rows: 2, cols: 0, data: new Float32Array(0) }, 0.9);
    expect(returns).toMatchObject({ rows: 2, cols: 0 });
    expect(returns.data).toHaveLength(0);
    expect(trace.nChunks).toBe(0);
  });

  it("takes the identity branch for discount 0 and is exact for discount 1 within one chunk", () => {
    const rewards = asFloat32(randomBatch(2, 100, 3));
    expect(Array.from(chunkedDiscountedReturns(rewards, 0).returns.data)).toEqual(Array.from(rewards.data));
    const chunked = chunkedDiscountedReturns(rewards, 1, { chunkSize: 128 }).returns.data;
    expect(Array.from(chunked)).toEqual(Array.from(serialDiscountedReturns(rewards, 1).data));
  });
});

describe("REINFORCE++ returns with variable lengths", () => {
  it("reproduces slime's unit test: chunked over the padded batch equals the serial loop per sequence", () => {
    const batch = {
      rewards: [2.0, -1.0],
      kl: [Float32Array.of(0.2, 0.1, 0.3, 0.4, 0.5), Float32Array.of(0.4, 0.2, 0.1)],
      lossMasks: [
        [0, 1, 1, 1, 0],
        [1, 1, 1],
      ],
    };
    const chunked = reinforcePPReturns(batch, 0.1, 0.99);
    const serial = serialReinforcePPReturns(batch, 0.1, 0.99);
    const problem = { kind: "reinforce_pp" as const, batch, klCoef: 0.1, gamma: 0.99, chunkSize: 128 };
    const bounds = outputErrorBounds(problem, { precision: "float32", algorithm: "chunked" });
    if (bounds.kind !== "reinforce_pp") throw new Error("expected REINFORCE++ bounds");
    expect(chunked.padded).toMatchObject({ rows: 2, cols: 5 });
    expect(chunked.returns.map((r) => r.length)).toEqual([5, 3]);
    chunked.returns.forEach((row, i) => {
      expect(row).toBeInstanceOf(Float32Array);
      expect(boundFraction(row, serial.returns[i], bounds.returns[i])).toBeLessThanOrEqual(1);
    });
    // The outcome reward lands on the last unmasked token (index 3), the masked tail has G = 0.
    expect(chunked.tokenLevelRewards[0][3]).toBeCloseTo(2 - 0.1 * 0.4, 6);
    expect(chunked.returns[0][4]).toBe(0);
  });

  it("matches per-sequence float64 truth on a ragged batch with holes", () => {
    const random = seededRandom(11);
    const lengths = [1, 5, 130, 257, 40, 128, 129];
    const kl = lengths.map((L) => normals(random, L, 0.1));
    const batch = {
      rewards: lengths.map((_, i) => Math.fround(i - 3)),
      kl,
      lossMasks: lengths.map((L) => maskWithHoles(random, L)),
    };
    const truth = serialReinforcePPReturns(batch, 0.05, 0.99);
    const f64 = reinforcePPReturns(batch, 0.05, 0.99);
    const f32 = reinforcePPReturns({ ...batch, kl: kl.map((row) => Float32Array.from(row)) }, 0.05, 0.99);
    const problem = { kind: "reinforce_pp" as const, batch, klCoef: 0.05, gamma: 0.99, chunkSize: 128 };
    const bound64 = outputErrorBounds(problem, { precision: "float64", algorithm: "chunked" });
    const bound32 = outputErrorBounds(problem, { precision: "float32", algorithm: "chunked" });
    if (bound64.kind !== "reinforce_pp" || bound32.kind !== "reinforce_pp") throw new Error("expected bounds");
    truth.returns.forEach((expected, i) => {
      expect(boundFraction(f64.returns[i], expected, bound64.returns[i])).toBeLessThanOrEqual(1);
      expect(boundFraction(f32.returns[i], expected, bound32.returns[i])).toBeLessThanOrEqual(1);
    });
  });

  it("gives an empty result for an empty batch", () => {
    const result = reinforcePPReturns({ rewards: [], kl: [] as Float32Array[], lossMasks: [] }, 0.1, 0.99);
    expect(result.returns).toEqual([]);
    expect(result.padded).toMatchObject({ rows: 0, cols: 0 });
  });
});

describe("GAE reuses the scan", () => {
  for (const T of [127, 128, 129]) {
    it(`chunked_gae equals vanilla_gae, T = ${T}`, () => {
      const rewards = randomBatch(3, T, T);
      const values = randomBatch(3, T, T + 1);
      const truth = vanillaGae(rewards, values, 0.99, 0.95);
      const f64 = chunkedGae(rewards, values, 0.99, 0.95);
      const problem = { kind: "gae" as const, rewards, values, gamma: 0.99, lambd: 0.95, chunkSize: 128 };
      const bound64 = outputErrorBounds(problem, { precision: "float64", algorithm: "chunked" });
      const bound32 = outputErrorBounds(problem, { precision: "float32", algorithm: "chunked" });
      if (bound64.kind !== "gae" || bound32.kind !== "gae") throw new Error("expected GAE bounds");
      expect(boundFraction(f64.advantages.data, truth.advantages.data, bound64.advantages)).toBeLessThanOrEqual(1);
      const f32 = chunkedGae(asFloat32(rewards), asFloat32(values), 0.99, 0.95);
      expect(f32.returns.data).toBeInstanceOf(Float32Array);
      expect(boundFraction(f32.returns.data, truth.returns.data, bound32.returns)).toBeLessThanOrEqual(1);
      // The advantages are literally the discounted-return scan of the TD residuals with discount γλ.
      const deltas = tdResiduals(asFloat32(rewards), asFloat32(values), 0.99);
      expect(Array.from(f32.advantages.data)).toEqual(
        Array.from(chunkedDiscountedReturns(deltas, 0.99 * 0.95).returns.data),
      );
    });
  }
});
