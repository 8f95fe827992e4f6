import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { whitenAdvantages } from "../conventions/whiten";
import { approxKl, klErrorBound } from "./klReplay";
import { replayBounds } from "./replayBounds";
import { replaySlime } from "./replayDump";
import { replayReference } from "./replayReference";
import { judgeField } from "./replayVerdict";
import { type ReplaySample, SLIME_DEFAULTS, type SlimeSettings } from "./settings";
import { slimeWhitenBounds } from "./slimeWhitenBound";

const f64 = (xs: number[]) => Float64Array.from(xs);
const settings = (s: Partial<SlimeSettings>): SlimeSettings => ({ ...SLIME_DEFAULTS, ...s });

describe("replayReference: slime's estimators, by hand", () => {
  const sample: ReplaySample = { reward: 1, lossMask: [1, 1, 0], kl: f64([0.1, 0.2, 0.3]) };

  it("grpo, gspo, cispo: the reward on every token, returns = advantages", () => {
    for (const e of ["grpo", "gspo", "cispo"] as const) {
      const r = replayReference([sample], settings({ advantageEstimator: e, klCoef: 0.5 }));
      expect(Array.from(r.advantages[0])).toEqual([1, 1, 1]);
      expect(Array.from(r.returns[0])).toEqual([1, 1, 1]);
    }
  });

  it("reinforce_plus_plus: KL masked, the reward at the last mask-1 token, discounted over every token", () => {
    const r = replayReference(
      [sample],
      settings({ advantageEstimator: "reinforce_plus_plus", klCoef: 0.5, gamma: 0.5 }),
    );
    // tokens −β·kl·m = [−0.05, −0.1, 0], +1 at t = 1; G = [−0.05 + 0.5·0.9, 0.9, 0]
    expect(r.returns[0][2]).toBe(0);
    expect(r.returns[0][1]).toBeCloseTo(0.9, 15);
    expect(r.returns[0][0]).toBeCloseTo(0.4, 15);
    expect(r.advantages[0]).toEqual(r.returns[0]);
  });

  it("reinforce_plus_plus_baseline: R − β·kl on every token, KL not masked", () => {
    const r = replayReference([sample], settings({ advantageEstimator: "reinforce_plus_plus_baseline", klCoef: 0.5 }));
    expect(Array.from(r.advantages[0])).toEqual([1 - 0.05, 1 - 0.1, 1 - 0.15]);
  });

  it("ppo: KL on every token, the reward on the last token even when its mask is 0, GAE with the critic", () => {
    const s: ReplaySample = { reward: 1, lossMask: [1, 0], kl: f64([0.2, 0.4]), values: f64([0.1, 0.3]) };
    const r = replayReference([s], settings({ advantageEstimator: "ppo", klCoef: 0.5, gamma: 0.9, lambd: 0.5 }));
    expect(r.advantages[0][1]).toBeCloseTo(0.5, 15);
    expect(r.advantages[0][0]).toBeCloseTo(0.07 + 0.45 * 0.5, 15);
    expect(r.returns[0][0]).toBeCloseTo(0.295 + 0.1, 15);
    expect(r.returns[0][1]).toBeCloseTo(0.8, 15);
  });

  it("normalize_advantages whitens over the whole batch's mask-1 tokens, every token, returns untouched", () => {
    const batch: ReplaySample[] = [sample, { reward: -1, lossMask: [1, 1], kl: f64([0, 0]) }];
    const s = settings({ advantageEstimator: "grpo", normalizeAdvantages: true });
    const r = replayReference(batch, s);
    const expected = whitenAdvantages(
      "slime",
      [f64([1, 1, 1]), f64([-1, -1])],
      [
        [1, 1, 0],
        [1, 1],
      ],
    );
    expect(r.advantages).toEqual(expected);
    expect(Array.from(r.returns[1])).toEqual([-1, -1]);
  });

  it("KL: zeros when kl_coef is 0, recomputed from the log-probs when they are there, else the stored kl", () => {
    const withLogProbs: ReplaySample = { ...sample, logProbs: f64([-1, -2, -3]), refLogProbs: f64([-1.5, -2, -2]) };
    expect(Array.from(replayReference([withLogProbs], settings({ klCoef: 0 })).kl[0])).toEqual([0, 0, 0]);
    const k2 = replayReference([withLogProbs], settings({ klCoef: 0.1, klLossType: "k2" }));
    expect(Array.from(k2.kl[0])).toEqual([0.125, 0, 0.5]);
    expect(k2.klRecomputed).toEqual([true]);
    const stored = replayReference([sample], settings({ klCoef: 0.1 }));
    expect(stored.kl[0]).toBe(sample.kl);
    expect(() => replayReference([{ reward: 0, lossMask: [1] }], settings({ klCoef: 0.1 }))).toThrow(/no log_probs/);
  });

  it("a fully masked sample under reinforce_plus_plus raises slime's assertion", () => {
    const r = replaySlime(
      [{ reward: 1, lossMask: [0, 0], kl: f64([0, 0]) }],
      [{ advantages: [0, 0], returns: [0, 0] }],
      settings({ advantageEstimator: "reinforce_plus_plus" }),
    );
    expect(r).toEqual({ ok: false, error: "Sequence at index 0 is fully masked." });
  });
});

describe("approxKl and its float32 bound", () => {
  it("k1, k2, k3 and low_var_kl (clamped to ±10)", () => {
    const lp = [0.5, -30];
    const ref = [0, 0];
    expect(Array.from(approxKl(lp, ref, "k1"))).toEqual([0.5, -30]);
    expect(Array.from(approxKl(lp, ref, "k2"))).toEqual([0.125, 450]);
    expect(approxKl(lp, ref, "k3")[0]).toBeCloseTo(Math.exp(-0.5) - 1 + 0.5, 15);
    expect(approxKl(lp, ref, "low_var_kl")[1]).toBe(10);
  });

  it("holds torch's float32 KL (each operation rounded) for every formula", () => {
    const f = Math.fround;
    fc.assert(
      fc.property(fc.float({ min: -12, max: 0, noNaN: true }), fc.float({ min: -12, max: 0, noNaN: true }), (a, b) => {
        const x = f(a - b);
        const float32 = {
          k1: x,
          k2: f(f(x * x) / 2),
          k3: f(f(f(Math.exp(-x)) - 1) + x),
          low_var_kl: Math.min(10, Math.max(-10, f(f(f(Math.exp(-x)) - 1) + x))),
        };
        for (const type of ["k1", "k2", "k3", "low_var_kl"] as const) {
          const exact = approxKl([a], [b], type)[0];
          expect(Math.abs(float32[type] - exact)).toBeLessThanOrEqual(klErrorBound([a], [b], type)[0]);
        }
      }),
      { seed: 7, numRuns: 2000 },
    );
  });
});

describe("slimeWhitenBounds", () => {
  /** slime's whitening in float32, with plain sequential float32 sums (more roundings per term than torch's cascade). */
  function float32Whiten(rows: number[][], masks: number[][]): number[][] {
    const f = Math.fround;
    let s1 = 0;
    let s2 = 0;
    let n = 0;
    rows.forEach((row, i) => {
      row.forEach((a, t) => {
        s1 = f(s1 + a * masks[i][t]);
        s2 = f(s2 + f(a * a) * masks[i][t]);
        n += masks[i][t];
      });
    });
    const mean = f(s1 / n);
    let variance = f(f(s2 / n) - f(mean * mean));
    if (n >= 2) variance = f(variance * f(n / (n - 1)));
    const rs = f(1 / f(Math.sqrt(f(variance + f(1e-8)))));
    return rows.map((row) => row.map((a) => f(f(a - mean) * rs)));
  }

  it("holds slime's float32 whitening of float32 advantages", () => {
    let checked = 0;
    const row = fc.array(fc.float({ min: -5, max: 5, noNaN: true, noDefaultInfinity: true }), {
      minLength: 1,
      maxLength: 20,
    });
    fc.assert(
      fc.property(
        fc.array(row, { minLength: 1, maxLength: 4 }),
        fc.float({ min: -3, max: 3, noNaN: true }),
        (rows, shift) => {
          const shifted = rows.map((r) => r.map((a) => Math.fround(a + shift)));
          const masks = shifted.map((r) => r.map((_, t) => (t % 3 === 2 ? 0 : 1)));
          if (masks.flat().every((m) => m === 0)) return;
          const exact = whitenAdvantages("slime", shifted.map(f64), masks);
          const bounds = slimeWhitenBounds(
            shifted.map(f64),
            shifted.map((r) => new Float64Array(r.length)),
            masks,
          );
          const got = float32Whiten(shifted, masks);
          // An infinite bound is a failing verdict of its own (a batch of equal values whitens to NaN in float32).
          if (!Number.isFinite(bounds[0][0])) return;
          checked += 1;
          got.forEach((r, i) => {
            r.forEach((v, t) => {
              expect(Math.abs(v - exact[i][t])).toBeLessThanOrEqual(bounds[i][t]);
            });
          });
        },
      ),
      { seed: 11, numRuns: 500 },
    );
    expect(checked).toBeGreaterThan(400);
  });

  it("is infinite (a failing verdict) when the batch is too ill-conditioned to check", () => {
    const a = [f64([1, 1, 1])];
    const bounds = slimeWhitenBounds(a, [f64([1, 1, 1])], [[1, 1, 1]]);
    expect(bounds[0].every((b) => b === Number.POSITIVE_INFINITY)).toBe(true);
  });
});

describe("judgeField", () => {
  it("passes values within their bounds and names the worst token of those outside", () => {
    const ok = judgeField([1000, 2000.5], [1000, 2000], [0.1, 1]);
    expect(ok).toMatchObject({ passed: true, maxGap: 0.5, worstToken: 1, failures: 0, scale: 2000 });
    const bad = judgeField([1000, 2000.5, 3000], [1000, 2000, 3000], [0.1, 0.2, 0]);
    expect(bad).toMatchObject({ passed: false, worstToken: 1, worstGap: 0.5, worstBound: 0.2, failures: 1 });
  });

  it("never passes on an infinite or NaN bound: the value is held to the exact one at the accuracy threshold", () => {
    const inf = Number.POSITIVE_INFINITY;
    for (const bound of [inf, Number.NaN]) {
      // Scale 2: the threshold is 2e-3.
      expect(judgeField([1, 2.001], [1, 2], [bound, bound])).toMatchObject({ passed: true, unbounded: 2 });
      expect(judgeField([1, 2.01], [1, 2], [bound, bound])).toMatchObject({ passed: false, worstToken: 1 });
      for (const v of [Number.NaN, 42, 1e30, inf, -inf])
        expect(judgeField([v, 2], [1, 2], [bound, bound]).passed).toBe(false);
    }
  });

  it("holds a value whose finite bound is wider than the threshold to the threshold, where asked", () => {
    expect(judgeField([1, 2.01], [1, 2], [0.1, 0.1], { holdWide: true })).toMatchObject({
      passed: false,
      wide: 2,
      worstBound: 2e-3,
    });
    expect(judgeField([1, 2.01], [1, 2], [0.1, 0.1])).toMatchObject({ passed: true, wide: 0 });
  });

  it("names as worst the failing token with the largest gap, not the one whose bound underflowed", () => {
    const v = judgeField([1.178, 1e-40], [1, 0], [1e-6, 1.4e-45]);
    expect(v.worstToken).toBe(0);
    expect(v.failures).toBe(2);
  });

  it("fails NaN and ±Inf where the reference is finite, and a wrong length", () => {
    expect(judgeField([Number.NaN], [0], [1]).passed).toBe(false);
    expect(judgeField([Number.POSITIVE_INFINITY], [0], [1]).passed).toBe(false);
    expect(judgeField([0], [0, 1], [1, 1]).passed).toBe(false);
  });
});

describe("replayBounds per data-parallel rank", () => {
  it("bounds a sample as its own rank padded it: alone on its rank, as if replayed alone", () => {
    const short: ReplaySample = { reward: 1, lossMask: new Array(200).fill(1), kl: new Float64Array(200).fill(0.01) };
    const long: ReplaySample = { reward: -1, lossMask: new Array(1000).fill(1), kl: new Float64Array(1000).fill(0.02) };
    const s = settings({ advantageEstimator: "reinforce_plus_plus", gamma: 0.99, klCoef: 0.1 });
    const bounds = (samples: ReplaySample[]) => replayBounds(samples, s, replayReference(samples, s)).returns[0];
    const alone = bounds([short]);
    const sameRank = bounds([short, long]);
    const otherRank = bounds([
      { ...short, dataParallelRank: 0 },
      { ...long, dataParallelRank: 1 },
    ]);
    expect(otherRank).toEqual(alone);
    expect(sameRank).not.toEqual(alone);
  });
});

describe("replaySlime refuses what checks nothing", () => {
  const s = settings({ advantageEstimator: "reinforce_plus_plus", gamma: 0.99, klCoef: 0.05 });
  const sample: ReplaySample = { reward: 1, lossMask: [1, 1], kl: f64([0.01, 0.02]) };
  const stored = [{ advantages: [1, 1], returns: [1, 1] }];

  it("a kl_coef, γ or λ that rounds to infinity in float32", () => {
    for (const bad of [{ klCoef: 1e300 }, { gamma: 1e39 }, { lambd: -1e300 }]) {
      const r = replaySlime([sample], stored, { ...s, ...bad });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toMatch(/rounds to infinity in float32/);
    }
  });

  it("samples with 0 tokens, and a dump with no samples", () => {
    const empty: ReplaySample = { reward: 1, lossMask: [] };
    const r = replaySlime(
      [empty, empty],
      [
        { advantages: [], returns: [] },
        { advantages: [], returns: [] },
      ],
      s,
    );
    expect(r).toEqual({ ok: false, error: "every sample has 0 response tokens: nothing to compare there" });
    const one = replaySlime([sample, empty], [...stored, { advantages: [], returns: [] }], s);
    expect(one.ok === false && one.error).toMatch(/samples 1 have 0 response tokens/);
    expect(replaySlime([], [], s).ok).toBe(false);
  });
});

describe("replaySlime verdicts can fail", () => {
  it("a stored value moved past its bound fails that sample only", () => {
    const samples: ReplaySample[] = [
      { reward: 0.7, lossMask: [1, 1, 1, 0], kl: f64([0.01, -0.02, 0.03, 0.5]) },
      { reward: -0.2, lossMask: [1, 0, 1], kl: f64([0.1, 0.2, -0.1]) },
    ];
    const s = settings({ advantageEstimator: "reinforce_plus_plus", gamma: 0.99, klCoef: 0.05 });
    const reference = replayReference(samples, s);
    const stored = reference.returns.map((r) => ({ advantages: Float32Array.from(r), returns: Float32Array.from(r) }));
    const good = replaySlime(samples, stored, s);
    expect(good.ok && good.passed).toBe(true);
    if (!good.ok) return;
    const bound = good.samples[1].bounds.advantages[2];
    stored[1].advantages[2] += 4 * bound + 1e-6;
    const bad = replaySlime(samples, stored, s);
    expect(bad.ok && bad.passed).toBe(false);
    if (!bad.ok) return;
    expect(bad.samples.map((x) => x.passed)).toEqual([true, false]);
    expect(bad.samples[1].advantages.worstToken).toBe(2);
  });
});
