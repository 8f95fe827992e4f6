import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { FloatArray } from "./batch";
import { chunkedDiscountedReturns } from "./chunkedScan";
import { type ScanAlgorithm, scanErrorBound } from "./errorBound";
import { chunkedGae, vanillaGae } from "./gae";
import { outputErrorBounds } from "./outputBounds";
import { serialDiscountedReturns } from "./serialScan";
import { normals, seededRandom } from "./testRandom";

const seed = Number(process.env.SCANLAB_FC_SEED ?? 20261129);
fc.configureGlobal({ seed });

/** Rewards over the whole float32 range, subnormals and exact zeros included. */
const reward = fc.oneof(
  fc.float({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }),
  fc.float({ min: Math.fround(-1e-36), max: Math.fround(1e-36), noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, 1e30, -1e30, 2 ** -149),
);

const inputs = fc.integer({ min: 0, max: 200 }).chain((T) =>
  fc.record({
    rewards: fc.array(reward, { minLength: T, maxLength: T }),
    chunkSize: fc.integer({ min: 1, max: T + 8 }),
    discount: fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0, 0.5, 0.9, 0.99, 0.999, 1)),
  }),
);

/** Every element within its bound; returns the largest error as a fraction of its bound. */
function worstFraction(actual: FloatArray, truth: FloatArray, bound: Float64Array): number {
  let worst = 0;
  for (let t = 0; t < truth.length; t++) {
    const error = Math.abs(actual[t] - truth[t]);
    expect(error, `token ${t}: ${actual[t]} vs ${truth[t]}, bound ${bound[t]}`).toBeLessThanOrEqual(bound[t]);
    worst = Math.max(worst, error / bound[t]);
  }
  return worst;
}

function rowBound(
  rewards: number[],
  discount: number,
  chunkSize: number,
  precision: "float32" | "float64",
  algorithm: ScanAlgorithm,
) {
  return scanErrorBound({ magnitudes: rewards }, discount, {
    precision,
    algorithm,
    chunkSize,
    inputRoundings: precision === "float32" ? 1 : 0,
  });
}

describe("the per-element bound holds against the float64 truth at the exact discount", () => {
  it("for slime's float32 chunked scan and the float32 serial loop, any C, d and magnitude", () => {
    fc.assert(
      fc.property(inputs, ({ rewards, chunkSize, discount }) => {
        const T = rewards.length;
        const truth = serialDiscountedReturns({ rows: 1, cols: T, data: Float64Array.from(rewards) }, discount).data;
        const f32 = { rows: 1, cols: T, data: Float32Array.from(rewards) };
        const chunked = chunkedDiscountedReturns(f32, discount, { chunkSize }).returns.data;
        worstFraction(chunked, truth, rowBound(rewards, discount, chunkSize, "float32", "chunked"));
        const serial = serialDiscountedReturns(f32, discount).data;
        worstFraction(serial, truth, rowBound(rewards, discount, chunkSize, "float32", "serial"));
      }),
      { numRuns: 400 },
    );
  });

  it("for the float64 chunked scan", () => {
    fc.assert(
      fc.property(inputs, ({ rewards, chunkSize, discount }) => {
        const T = rewards.length;
        const batch = { rows: 1, cols: T, data: Float64Array.from(rewards) };
        const truth = serialDiscountedReturns(batch, discount).data;
        const chunked = chunkedDiscountedReturns(batch, discount, { chunkSize }).returns.data;
        worstFraction(chunked, truth, rowBound(rewards, discount, chunkSize, "float64", "chunked"));
      }),
      { numRuns: 300 },
    );
  });

  it("for GAE advantages and returns in float32, chunked and serial", () => {
    const random = seededRandom(11);
    for (const [gamma, lambd, T, C] of [
      [0.99, 0.95, 1000, 128],
      [1, 1, 700, 16],
      [0.999, 0.97, 3000, 128],
      [0.9, 0, 50, 4],
    ]) {
      const r = normals(random, T);
      const v = normals(random, T, 5);
      const problem = {
        kind: "gae" as const,
        rewards: { rows: 1, cols: T, data: r },
        values: { rows: 1, cols: T, data: v },
        gamma,
        lambd,
        chunkSize: C,
      };
      const truth = vanillaGae(problem.rewards, problem.values, gamma, lambd);
      const f32 = (x: Float64Array) => ({ rows: 1, cols: T, data: Float32Array.from(x) });
      const chunked = chunkedGae(f32(r), f32(v), gamma, lambd, { chunkSize: C });
      const serial = vanillaGae(f32(r), f32(v), gamma, lambd);
      for (const [result, algorithm] of [
        [chunked, "chunked"],
        [serial, "serial"],
      ] as const) {
        const bounds = outputErrorBounds(problem, { precision: "float32", algorithm });
        if (bounds.kind !== "gae") throw new Error("expected GAE bounds");
        worstFraction(result.advantages.data, truth.advantages.data, bounds.advantages);
        worstFraction(result.returns.data, truth.returns.data, bounds.returns);
      }
    }
  });
});

describe("the bound is tight enough to catch real mistakes", () => {
  it("stays within about three thousand float32 ulps of |G| for γ = 0.99 on N(0,1) rewards, T = 4096", () => {
    const rewards = Array.from(normals(seededRandom(5), 4096));
    const bound = rowBound(rewards, 0.99, 128, "float32", "chunked");
    const truth = serialDiscountedReturns({ rows: 1, cols: 4096, data: Float64Array.from(rewards) }, 0.99).data;
    // The magnitude scan A_t is about |G_t| for decaying discounts, so the bound is k·u·|G| with k ≈ C.
    const relative = Array.from(bound).map((b, t) => b / Math.max(Math.abs(truth[t]), 1));
    relative.sort((a, b) => a - b);
    expect(relative[2048]).toBeLessThan(2e-4);
  });

  it("is zero-width for discount 0 in float64: G = r exactly", () => {
    const bound = rowBound([1e6, 1, 2, 3], 0, 128, "float64", "chunked");
    expect(Math.max(...bound)).toBeLessThan(1e-300);
  });
});

describe("a row scanned at a padded batch's length", () => {
  it("is bounded exactly as the zero-padded copy of the row, without the copy", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300 }),
        fc.integer({ min: 0, max: 700 }),
        fc.constantFrom(1, 7, 128),
        fc.constantFrom<ScanAlgorithm>("chunked", "two-level", "serial"),
        fc.constantFrom(0.5, 0.99, 1, 0),
        fc.boolean(),
        (L, pad, chunkSize, algorithm, discount, carried) => {
          const random = seededRandom(L * 1000 + pad);
          const magnitudes = normals(random, L).map(Math.abs);
          const carriedThrough = carried ? Float64Array.from({ length: L }, () => (random() < 0.2 ? 1 : 0)) : undefined;
          const rounding = { precision: "float32" as const, algorithm, chunkSize, inputRoundings: 3 };
          const padded = new Float64Array(L + pad);
          padded.set(magnitudes);
          const whole = scanErrorBound({ magnitudes: padded, carriedThrough }, discount, rounding).slice(0, L);
          const direct = scanErrorBound({ magnitudes, carriedThrough }, discount, rounding, L + pad);
          expect(Array.from(direct)).toEqual(Array.from(whole));
        },
      ),
      { numRuns: 200 },
    );
  });
});
