import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runConvention } from "../conventions/runConvention";
import { type BitComparison, compareWithSlimeCpu } from "./exactReplay";
import { byDataParallelRank } from "./replayBounds";
import { type ReplaySample, SLIME_DEFAULTS, type SlimeSettings } from "./settings";

/**
 * The comparison as slime computes it, literally: each rank's whole batch right-padded to its
 * longest row and scanned at once (runConvention). compareWithSlimeCpu scans each row with only the
 * padding that moves its chunk boundaries; the two must agree bit for bit, −0, NaN and ∞ included.
 */
function paddedBatchComparison(
  samples: ReplaySample[],
  storedReturns: ArrayLike<number>[],
  settings: SlimeSettings,
): BitComparison | null {
  const returns = paddedBatchReturns(samples, settings);
  if (!returns) return null;
  const out: BitComparison = { compared: 0, identical: 0, maxUlps: 0, first: null };
  // In the order compareWithSlimeCpu reports: rank by rank, each rank's samples in turn.
  for (const rank of byDataParallelRank(samples)) {
    for (const i of rank) {
      for (let t = 0; t < returns[i].length; t++) {
        out.compared += 1;
        const stored = storedReturns[i][t];
        if (Object.is(returns[i][t], stored)) {
          out.identical += 1;
          continue;
        }
        out.first ??= { sample: i, token: t };
        const ulp = 2 ** (Math.floor(Math.log2(Math.abs(stored) || 2 ** -126)) - 23);
        out.maxUlps = Math.max(out.maxUlps, Math.abs(returns[i][t] - stored) / ulp);
      }
    }
  }
  return out;
}

/** Each sample's returns from its rank's padded batch, or null when slime would raise. */
function paddedBatchReturns(samples: ReplaySample[], settings: SlimeSettings): Float32Array[] | null {
  const estimator = settings.advantageEstimator === "reinforce_plus_plus" ? "reinforce_pp" : "gae";
  const out: Float32Array[] = [];
  for (const rank of byDataParallelRank(samples)) {
    const batch = {
      rewards: rank.map((i) => samples[i].reward),
      kl: rank.map((i) => new Float32Array(samples[i].kl as Float64Array)),
      lossMasks: rank.map((i) => samples[i].lossMask),
      values: estimator === "gae" ? rank.map((i) => new Float32Array(samples[i].values as Float64Array)) : undefined,
    };
    try {
      const { gamma, lambd, klCoef } = settings;
      const { returns } = runConvention("slime", estimator, batch, { gamma, lambd, klCoef, normalize: false });
      rank.forEach((i, j) => {
        out[i] = returns[j];
      });
    } catch {
      return null;
    }
  }
  return out;
}

const f32 = (x: number) => Math.fround(x);
const value = fc.oneof(
  { weight: 30, arbitrary: fc.float({ min: -4, max: 4, noNaN: true }) },
  { weight: 1, arbitrary: fc.constantFrom(0, -0, 1e30, -1e-40) },
);
const sampleArb = fc.integer({ min: 1, max: 300 }).chain((length) =>
  fc.record({
    reward: fc.oneof(fc.float({ min: -2, max: 2, noNaN: true }), fc.constant(0)),
    kl: fc.array(value, { minLength: length, maxLength: length }),
    values: fc.array(value, { minLength: length, maxLength: length }),
    mask: fc.array(fc.constantFrom(0, 1, 1, 1), { minLength: length, maxLength: length }),
    rank: fc.integer({ min: 0, max: 2 }),
    edits: fc.array(fc.integer({ min: 0, max: length - 1 }), { maxLength: 2 }),
    // Now and then a NaN or ∞ in the KL or the values: slime's scan refuses it (null either way).
    wild: fc.tuple(fc.integer({ min: 0, max: length - 1 }), fc.constantFrom(Number.NaN, -Infinity)),
    wildOn: fc.integer({ min: 0, max: 19 }),
  }),
);

describe("compareWithSlimeCpu: each row with its own padding, bit for bit the padded batch", () => {
  it("agrees with the whole padded batch on ragged ranks, both estimators, any discount", () => {
    let compared = 0;
    fc.assert(
      fc.property(
        fc.array(sampleArb, { minLength: 1, maxLength: 6 }),
        fc.constantFrom("ppo", "reinforce_plus_plus") as fc.Arbitrary<"ppo" | "reinforce_plus_plus">,
        fc.constantFrom(1, 0.99, 0.5, 0, 1.7, 1e6, -0.9),
        fc.constantFrom(1, 0.95, 0),
        fc.constantFrom(0, 0.02, 1),
        (raw, advantageEstimator, gamma, lambd, klCoef) => {
          const samples: ReplaySample[] = raw.map((s) => {
            const kl = Float64Array.from(s.kl, f32);
            if (s.wildOn === 0) kl[s.wild[0]] = s.wild[1];
            return {
              reward: f32(s.reward),
              lossMask: s.mask,
              kl,
              values: Float64Array.from(s.values, f32),
              dataParallelRank: s.rank,
            };
          });
          const settings = { ...SLIME_DEFAULTS, advantageEstimator, gamma, lambd, klCoef, contextParallelSize: 1 };
          // Stored returns: slime's own where they can be computed, a few tokens moved by an ulp or two.
          const own = paddedBatchReturns(samples, settings);
          const stored = samples.map((s, i) => {
            const row = Float32Array.from(own?.[i] ?? (s.kl as Float64Array));
            for (const t of raw[i].edits) row[t] = row[t] * (1 + 2 ** -22);
            return row;
          });
          const expected = paddedBatchComparison(samples, stored, settings);
          if (expected) compared += 1;
          expect(compareWithSlimeCpu(samples, stored, settings)).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
    // Most batches are scanned, not refused.
    expect(compared).toBeGreaterThan(150);
  });

  it("finds slime's own returns identical (a batch long enough to skip whole chunks of padding)", () => {
    const lengths = [5, 700, 129, 300];
    const samples: ReplaySample[] = lengths.map((n, i) => ({
      reward: i % 2 ? 1 : -0.5,
      lossMask: new Array(n).fill(1),
      kl: Float64Array.from({ length: n }, (_, t) => f32(Math.sin(t + i) * 0.01)),
      values: Float64Array.from({ length: n }, (_, t) => f32(Math.cos(t * 0.1 + i))),
    }));
    const settings = { ...SLIME_DEFAULTS, advantageEstimator: "ppo" as const, gamma: 0.99, lambd: 0.95, klCoef: 0.02 };
    const batch = {
      rewards: samples.map((s) => s.reward),
      kl: samples.map((s) => new Float32Array(s.kl as Float64Array)),
      lossMasks: samples.map((s) => s.lossMask),
      values: samples.map((s) => new Float32Array(s.values as Float64Array)),
    };
    const stored = runConvention("slime", "gae", batch, { ...settings, normalize: false }).returns;
    const bits = compareWithSlimeCpu(samples, stored, settings);
    expect(bits).toEqual({ compared: 1134, identical: 1134, maxUlps: 0, first: null });
  });
});
