import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cpLayout, cpLayoutProblem } from "../contextParallel/layout";
import { ppoGaeByRank } from "../contextParallel/ppoByRank";
import { runConvention } from "../conventions/runConvention";
import { whitenAdvantages } from "../conventions/whiten";
import { cleanDecimal } from "./cleanDecimal";
import type { InferredSettings } from "./inferredSettings";
import { inferSettings } from "./inferSettings";
import { EquationSet, solveLeastSquares } from "./leastSquares";
import { type DumpOutputs, replaySlime } from "./replayDump";
import { KL_LOSS_TYPES, type KlLossType, type ReplaySample, SLIME_DEFAULTS, type SlimeSettings } from "./settings";

// A fixed seed keeps CI reproducible; SCANLAB_FC_SEED=<n> explores other draws locally.
const seed = Number(process.env.SCANLAB_FC_SEED ?? 20261204);

const f = Math.fround;

/** torch's float32 `compute_approx_kl`, each operation rounded. */
function kl32(logProbs: Float32Array, ref: Float32Array, type: KlLossType): Float32Array {
  return logProbs.map((lp, t) => {
    const x = f(lp - ref[t]);
    if (type === "k1") return x;
    if (type === "k2") return f(f(x * x) / 2);
    const k = f(f(f(Math.exp(-x)) - 1) + x);
    return type === "low_var_kl" ? Math.min(10, Math.max(-10, k)) : k;
  });
}

interface Draw {
  estimator: "grpo" | "reinforce_plus_plus" | "reinforce_plus_plus_baseline" | "ppo";
  gamma: number;
  lambd: number;
  klCoef: number;
  klLossType: KlLossType;
  useRolloutLogprobs: boolean;
  normalize: boolean;
  cpSize: number;
  samples: {
    reward: number;
    mask: number[];
    logProbs: number[];
    ref: number[];
    rollout: number[];
    values: number[];
    prompt: number;
  }[];
}

/** float32 values as a trainer has them: log-probs and values of 1e-30 do not occur (their KL would be subnormal). */
const real = (min: number, max: number) =>
  fc.float({ min, max, noNaN: true }).map((x) => (Math.abs(x) < 1e-12 ? 0 : x));

const sampleArb = (length: number) =>
  fc.record({
    reward: real(-2, 2),
    // Holes (tool tokens) and a trainable token somewhere: REINFORCE++ asserts one.
    mask: fc
      .array(fc.constantFrom(0, 1, 1, 1), { minLength: length, maxLength: length })
      .chain((m) => fc.integer({ min: 0, max: length - 1 }).map((i) => m.map((x, t) => (t === i ? 1 : x)))),
    logProbs: fc.array(real(-4, 0), { minLength: length, maxLength: length }),
    ref: fc.array(real(-4, 0), { minLength: length, maxLength: length }),
    rollout: fc.array(real(-4, 0), { minLength: length, maxLength: length }),
    values: fc.array(real(-2, 2), { minLength: length, maxLength: length }),
    prompt: fc.integer({ min: 1, max: 40 }),
  });

/** Clean decimals half the time (what users type), any double in range otherwise. */
const setting = (min: number, max: number, clean: number[]) =>
  fc.oneof(fc.double({ min, max, noNaN: true }), fc.constantFrom(...clean));

const drawArb = (estimator: Draw["estimator"]) =>
  fc.record({
    estimator: fc.constant(estimator),
    gamma: setting(0.5, 1, [0.5, 0.9, 0.95, 0.99, 0.999, 1]),
    lambd: setting(0.5, 1, [0.5, 0.9, 0.95, 1]),
    klCoef: setting(1e-3, 0.5, [0.001, 0.01, 0.02, 0.05, 0.1]),
    klLossType: fc.constantFrom(...KL_LOSS_TYPES),
    useRolloutLogprobs: fc.boolean(),
    normalize: fc.boolean(),
    cpSize: fc.constantFrom(1, 2, 4, 8),
    samples: fc
      .array(fc.integer({ min: 1, max: 400 }), { minLength: 1, maxLength: 8 })
      .chain((lengths) => fc.tuple(...lengths.map(sampleArb))),
  });

/** The stored numbers slime's float32 path writes for a draw (chunked scans, float32 whitening). */
function write(draw: Draw): { samples: ReplaySample[]; stored: DumpOutputs[]; truth: SlimeSettings } {
  const { estimator, gamma, lambd, klCoef, klLossType, useRolloutLogprobs, normalize } = draw;
  const f32 = (xs: number[]) => Float32Array.from(xs);
  const kl = draw.samples.map((s) => kl32(f32(useRolloutLogprobs ? s.rollout : s.logProbs), f32(s.ref), klLossType));
  const masks = draw.samples.map((s) => s.mask);
  const rewards = draw.samples.map((s) => s.reward);
  const values = draw.samples.map((s) => f32(s.values));
  let cpSize = 1;
  let returns: Float32Array[];
  let raw: Float32Array[];
  if (estimator === "grpo") {
    returns = kl.map((k, i) => new Float32Array(k.length).fill(rewards[i]));
    raw = returns;
  } else if (estimator === "reinforce_plus_plus_baseline") {
    returns = kl.map((k, i) => k.map((x) => f(f(rewards[i]) - f(f(klCoef) * x))));
    raw = returns;
  } else if (estimator === "reinforce_plus_plus") {
    const run = runConvention(
      "slime",
      "reinforce_pp",
      { rewards, kl, lossMasks: masks },
      { gamma, klCoef, normalize: false },
    );
    returns = run.returns;
    raw = returns;
  } else {
    const totals = draw.samples.map((s) => s.prompt + s.mask.length);
    const fits = draw.samples.every((s, i) => !cpLayoutProblem(totals[i], s.mask.length, draw.cpSize));
    const ppoSamples = draw.samples.map((s, i) => ({ kl: kl[i], values: values[i], reward: s.reward }));
    try {
      if (!fits) throw new Error("no layout");
      const layouts = totals.map((T, i) => cpLayout(T, draw.samples[i].mask.length, draw.cpSize));
      const run = ppoGaeByRank(ppoSamples, layouts, klCoef, gamma, lambd);
      cpSize = draw.cpSize;
      returns = run.returns;
      raw = run.advantages;
    } catch {
      // CP rank 0 holds no response token at this size: slime raises, so the run used cp_size 1.
      const run = runConvention(
        "slime",
        "gae",
        { rewards, kl, lossMasks: masks, values },
        { gamma, lambd, klCoef, normalize: false },
      );
      returns = run.returns;
      raw = run.advantages;
    }
  }
  const advantages = normalize ? whitenAdvantages("slime", raw, masks) : raw;
  const samples: ReplaySample[] = draw.samples.map((s, i) => ({
    reward: s.reward,
    lossMask: s.mask,
    totalLength: s.prompt + s.mask.length,
    logProbs: Float64Array.from(s.logProbs),
    refLogProbs: Float64Array.from(s.ref),
    rolloutLogProbs: Float64Array.from(s.rollout),
    kl: Float64Array.from(kl[i]),
    values: estimator === "ppo" ? Float64Array.from(values[i]) : undefined,
  }));
  const stored = samples.map((s, i) => ({
    advantages: Float64Array.from(advantages[i]),
    returns: Float64Array.from(returns[i]),
    kl: s.kl,
  }));
  const truth: SlimeSettings = {
    ...SLIME_DEFAULTS,
    advantageEstimator: estimator,
    gamma,
    lambd,
    klCoef,
    klLossType,
    useRolloutLogprobs,
    normalizeAdvantages: normalize,
    contextParallelSize: cpSize,
  };
  return { samples, stored, truth };
}

/** The settings each estimator reads (the others it ignores). */
const USES: Record<Draw["estimator"], string[]> = {
  grpo: [],
  reinforce_plus_plus_baseline: ["klCoef"],
  reinforce_plus_plus: ["gamma", "klCoef"],
  ppo: ["gamma", "lambd", "klCoef"],
};

/**
 * The estimator read is the truth's unless a reason says why not; then every estimate of a setting
 * it uses holds the truth, every setting read equals it unless a reason says why not; the replay passes.
 */
function expectConsistent(
  inferred: InferredSettings,
  truth: SlimeSettings,
  samples: ReplaySample[],
  stored: DumpOutputs[],
) {
  const why = inferred.notIdentifiable;
  const replay = replaySlime(samples, stored, inferred.settings);
  expect(replay.ok && replay.passed, JSON.stringify(inferred)).toBe(true);
  if (inferred.settings.advantageEstimator !== truth.advantageEstimator) {
    expect(
      why.advantageEstimator,
      `${inferred.settings.advantageEstimator} vs ${truth.advantageEstimator}`,
    ).toBeDefined();
    return;
  }
  for (const [key, e] of Object.entries(inferred.estimates)) {
    if (!USES[truth.advantageEstimator as Draw["estimator"]].includes(key)) continue;
    const want = truth[key as keyof SlimeSettings] as number;
    expect(Math.abs(e.value - want), `${key} ${e.value} ± ${e.uncertainty} vs ${want}`).toBeLessThanOrEqual(
      e.uncertainty,
    );
  }
  for (const key of ["normalizeAdvantages", "klLossType", "useRolloutLogprobs", "contextParallelSize"] as const) {
    if (inferred.settings[key] !== truth[key]) {
      expect(why[key], `${key}: ${inferred.settings[key]} vs ${truth[key]}`).toBeDefined();
    }
  }
}

describe("inferSettings on slime's float32 numbers, random settings and batches", () => {
  for (const estimator of ["reinforce_plus_plus", "ppo", "reinforce_plus_plus_baseline", "grpo"] as const) {
    it(`${estimator}: every estimate within its uncertainty of the truth, and the replay passes`, () => {
      fc.assert(
        fc.property(drawArb(estimator), (draw) => {
          const { samples, stored, truth } = write(draw);
          expectConsistent(inferSettings(samples, stored), truth, samples, stored);
        }),
        { seed, numRuns: estimator === "grpo" ? 10 : 25 },
      );
    });
  }
});

describe("inferSettings by hand", () => {
  const long = (n: number, g: (t: number) => number) => Array.from({ length: n }, (_, t) => f(g(t)));
  const draw = (over: Partial<Draw>): Draw => ({
    estimator: "reinforce_plus_plus",
    gamma: 0.99,
    lambd: 0.95,
    klCoef: 0.05,
    klLossType: "k1",
    useRolloutLogprobs: false,
    normalize: false,
    cpSize: 1,
    samples: [0, 1, 2].map((i) => ({
      reward: i - 1,
      mask: long(200, (t) => (t % 37 < 30 ? 1 : 0)),
      logProbs: long(200, (t) => -Math.abs(Math.sin(t + i))),
      ref: long(200, (t) => -Math.abs(Math.cos(t * 1.3 + i))),
      rollout: long(200, (t) => -Math.abs(Math.sin(t * 0.7 + i))),
      values: long(200, (t) => Math.sin(t * 0.1 + i)),
      prompt: 10,
    })),
    ...over,
  });

  it("REINFORCE++: γ and kl_coef read back, rounded to what the user typed", () => {
    const { samples, stored } = write(draw({}));
    const r = inferSettings(samples, stored);
    expect(r.settings).toMatchObject({ advantageEstimator: "reinforce_plus_plus", gamma: 0.99, klCoef: 0.05 });
    expect(r.settings.normalizeAdvantages).toBe(false);
    expect(r.notIdentifiable.lambd).toMatch(/no critic values/);
    expect(r.notes).toContain("replayed with these settings: every sample within its float32 bound");
  });

  it("ppo: β, γ and λ = μ/γ; whitened advantages read as normalize_advantages", () => {
    const { samples, stored } = write(draw({ estimator: "ppo", klLossType: "k2", normalize: true }));
    const r = inferSettings(samples, stored);
    expect(r.settings).toMatchObject({
      advantageEstimator: "ppo",
      gamma: 0.99,
      lambd: 0.95,
      klCoef: 0.05,
      klLossType: "k2",
      normalizeAdvantages: true,
    });
  });

  it("ppo under context parallelism: the size whose reward placement fits", () => {
    const d = draw({ estimator: "ppo", cpSize: 4, gamma: 1 });
    // T = 33, R = 28 over 4 ranks: rank 0's last element is response token 1 (CONTEXT_PARALLEL.md).
    d.samples = d.samples.map((s) => ({
      ...s,
      mask: s.mask.slice(0, 28),
      values: s.values.slice(0, 28),
      logProbs: s.logProbs.slice(0, 28),
      ref: s.ref.slice(0, 28),
      rollout: s.rollout.slice(0, 28),
      prompt: 5,
    }));
    const { samples, stored } = write(d);
    const r = inferSettings(samples, stored);
    expect(r.settings.contextParallelSize).toBe(4);
    expect(r.notIdentifiable.contextParallelSize).toBeUndefined();
  });

  it("REINFORCE++-baseline: β only; γ is not used", () => {
    const { samples, stored } = write(draw({ estimator: "reinforce_plus_plus_baseline", klLossType: "low_var_kl" }));
    const r = inferSettings(samples, stored);
    expect(r.settings).toMatchObject({ advantageEstimator: "reinforce_plus_plus_baseline", klCoef: 0.05 });
    expect(r.notIdentifiable.gamma).toMatch(/does not discount/);
    expect(r.notIdentifiable.klLossType).toMatch(/k3 and low_var_kl give the same KL/);
  });

  it("grpo: the reward on every token; kl_coef not used, γ not used, gspo and cispo the same", () => {
    const { samples, stored } = write(draw({ estimator: "grpo", normalize: true }));
    const r = inferSettings(samples, stored);
    expect(r.settings).toMatchObject({ advantageEstimator: "grpo", normalizeAdvantages: true, klCoef: 0 });
    expect(r.notIdentifiable.advantageEstimator).toMatch(/grpo, gspo and cispo compute the same/);
    expect(r.notIdentifiable.klCoef).toMatch(/grpo does not use the KL penalty/);
  });

  it("a zero KL: kl_coef 0 when log-probs differ from the reference's, not identifiable when they are equal", () => {
    const { samples, stored } = write(draw({}));
    const zero = stored.map((s) => ({ ...s, kl: new Float64Array(s.returns.length) }));
    const zeroSamples = samples.map((s) => ({ ...s, kl: new Float64Array(s.lossMask.length) }));
    const r = inferSettings(zeroSamples, zero);
    expect(r.estimates.klCoef).toEqual({ value: 0, uncertainty: 0 });
    expect(r.notes.join(" ")).toMatch(/slime zeroes it when kl_coef is 0/);
    const equal = zeroSamples.map((s) => ({ ...s, refLogProbs: s.logProbs, rolloutLogProbs: s.logProbs }));
    expect(inferSettings(equal, zero).notIdentifiable.klCoef).toMatch(/any kl_coef gives these numbers/);
  });

  it("one-token samples: γ not identifiable", () => {
    const d = draw({});
    d.samples = d.samples.map((s) => ({ ...s, mask: [1], logProbs: [-1], ref: [-2], rollout: [-1], values: [0.5] }));
    const { samples, stored } = write(d);
    expect(inferSettings(samples, stored).notIdentifiable.gamma).toMatch(/one token/);
    const ppo = write({ ...d, estimator: "ppo" });
    const r = inferSettings(ppo.samples, ppo.stored);
    expect(r.notIdentifiable.gamma).toMatch(/one token/);
    expect(r.notIdentifiable.lambd).toMatch(/one token/);
  });

  it("n_samples_per_prompt from the prompt groups", () => {
    const { samples, stored } = write(draw({}));
    const grouped = samples.map((s, i) => ({ ...s, group: Math.floor(i / 3) }));
    expect(inferSettings(grouped, stored).settings.nSamplesPerPrompt).toBe(3);
    expect(inferSettings(samples, stored).notIdentifiable.nSamplesPerPrompt).toMatch(/no prompt group/);
    const uneven = samples.map((s, i) => ({ ...s, group: i === 0 ? 0 : 1 }));
    expect(inferSettings(uneven, stored).notIdentifiable.nSamplesPerPrompt).toMatch(/1, 2 samples/);
  });

  it("degenerate input never throws: no samples, all-zero masks, NaN stored values", () => {
    const none = inferSettings([], []);
    expect(none.settings).toEqual(SLIME_DEFAULTS);
    expect(none.notIdentifiable.gamma).toMatch(/no samples/);
    const masked = inferSettings([{ reward: 1, lossMask: [0, 0] }], [{ advantages: [1, 1], returns: [1, 1] }]);
    expect(masked.settings.advantageEstimator).toBe("grpo");
    const { samples, stored } = write(draw({}));
    const poisoned = stored.map((s) => ({
      ...s,
      returns: Float64Array.from(s.returns).map((x, t) => (t % 50 === 7 ? Number.NaN : x)),
    }));
    const r = inferSettings(samples, poisoned);
    expect(r.settings).toMatchObject({ advantageEstimator: "reinforce_plus_plus", gamma: 0.99, klCoef: 0.05 });
    const allNaN = stored.map((s) => ({
      ...s,
      returns: new Float64Array(s.returns.length).fill(Number.NaN),
      advantages: new Float64Array(s.advantages.length).fill(Number.NaN),
    }));
    expect(() => inferSettings(samples, allNaN)).not.toThrow();
    expect(() => inferSettings(samples, [])).not.toThrow();
  });
});

describe("leastSquares and cleanDecimal", () => {
  it("solves an exact system; collinear columns are entangled, the others still solved", () => {
    const set = new EquationSet(3);
    for (let t = 0; t < 10; t++) set.add(2 * t + 3, [t, 1, 2 * t], 1);
    const fit = solveLeastSquares(set);
    expect(fit.solved).toEqual([false, true, false]);
    expect(fit.entangled).toEqual([true, false, true]);
    expect(fit.theta[1]).toBeCloseTo(3, 12);
    expect(fit.chiSquare).toBeLessThan(1e-20);
    const plain = new EquationSet(2);
    for (let t = 0; t < 10; t++) plain.add(0.5 * t - 2, [t, 1], 1);
    const line = solveLeastSquares(plain);
    expect(line.theta[0]).toBeCloseTo(0.5, 14);
    expect(line.theta[1]).toBeCloseTo(-2, 14);
  });

  it("rounds to the fewest digits inside the uncertainty", () => {
    expect(cleanDecimal(0.99000000124, 2e-6)).toBe(0.99);
    expect(cleanDecimal(0.0500000007, 1e-9)).toBe(0.05);
    expect(cleanDecimal(0.98731234, 1e-9)).toBe(0.98731234);
    expect(cleanDecimal(0.9873, 1e-3)).toBe(0.987);
  });
});
