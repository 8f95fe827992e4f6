import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { type ConventionProblem, LIBRARIES, ScanInputError } from "../../core";
import { runsOn, STRATEGIES } from "../../names/strategies";
import { useCpuBackend } from "../../testing/engineTestKit";
import { EngineOutputError } from "../engineErrors";
import { checkConventionOutputs } from "./conventionOutputCheck";
import { conventionReach } from "./conventionReach";
import { prepareConvention } from "./prepareConvention";
import { runConventionProblem } from "./runConventionProblem";

// A fixed seed keeps CI reproducible; SCANLAB_FC_SEED=<n> explores other draws locally.
const seed = Number(process.env.SCANLAB_FC_SEED ?? 20261130);
const strategies = STRATEGIES.filter((s) => runsOn(s, "cpu"));

const finite = fc.float({ min: -4, max: 4, noNaN: true, noDefaultInfinity: true });
const nonFinite = fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY);

/** A ragged batch with holes in its masks and one to three NaN or ±Inf in its KL, values or outcomes. */
const problems = fc.array(fc.integer({ min: 1, max: 48 }), { minLength: 1, maxLength: 3 }).chain((lengths) =>
  fc
    .record({
      library: fc.constantFrom(...LIBRARIES),
      estimator: fc.constantFrom("reinforce_pp" as const, "gae" as const),
      normalize: fc.boolean(),
      kl: fc.tuple(...lengths.map((L) => fc.array(finite, { minLength: L, maxLength: L }))),
      values: fc.tuple(...lengths.map((L) => fc.array(finite, { minLength: L, maxLength: L }))),
      masks: fc.tuple(...lengths.map((L) => fc.array(fc.constantFrom(0, 1, 1), { minLength: L, maxLength: L }))),
      outcomes: fc.tuple(...lengths.map(() => finite)),
      poison: fc.array(
        fc.record({
          lane: fc.constantFrom("kl" as const, "values" as const, "outcome" as const),
          row: fc.nat(),
          token: fc.nat(),
          value: nonFinite,
        }),
        { minLength: 1, maxLength: 3 },
      ),
      chunkSize: fc.integer({ min: 1, max: 20 }),
      strategy: fc.constantFrom(...strategies),
      gamma: fc.constantFrom(0.5, 0.99, 1),
    })
    .map((d) => {
      const kl = d.kl.map((row) => Float32Array.from(row));
      const values = d.values.map((row) => Float32Array.from(row));
      const rewards = [...d.outcomes];
      for (const { lane, row, token, value } of d.poison) {
        const b = row % lengths.length;
        if (lane === "outcome") rewards[b] = value;
        else (lane === "kl" ? kl : values)[b][token % lengths[b]] = value;
      }
      // Every row keeps a mask-1 token (slime refuses a fully masked one) and two in all (verl's whitening).
      const lossMasks = d.masks.map((mask) => [...mask.slice(0, -1), 1]);
      const problem: ConventionProblem<Float32Array> = {
        library: d.library,
        estimator: d.estimator,
        batch: { rewards, kl, lossMasks, ...(d.estimator === "gae" ? { values } : {}) },
        params: { gamma: d.gamma, lambd: 0.9, klCoef: 0.1, normalize: d.normalize && lengths.length > 1 },
        chunkSize: d.chunkSize,
        allowNonFinite: true,
      };
      return { problem, strategy: d.strategy };
    }),
);

const copy = (p: ConventionProblem<Float32Array>): ConventionProblem<Float32Array> => ({
  ...p,
  batch: {
    ...p.batch,
    rewards: Array.from(p.batch.rewards),
    kl: p.batch.kl.map((r) => r.slice()),
    values: p.batch.values?.map((r) => r.slice()),
  },
});

beforeAll(useCpuBackend);

describe("where NaN and ±Inf reach a convention's outputs on the engine (cpu)", () => {
  it("every non-finite output lies in the reach, and a NaN planted outside it is still a failure", async () => {
    await fc.assert(
      fc.asyncProperty(problems, async ({ problem, strategy }) => {
        // Runs: the output check accepts what the inputs reach (it throws otherwise).
        const { result } = await runConventionProblem(copy(problem), strategy);
        const p = prepareConvention(copy(problem));
        const reach = conventionReach(p, strategy);
        result.returns.forEach((row, b) => {
          row.forEach((x, t) => {
            if (!Number.isFinite(x)) expect(reach.returns[b][t], `returns, row ${b}, token ${t}`).toBe(1);
          });
        });
        result.advantages.forEach((row, b) => {
          row.forEach((x, t) => {
            if (Number.isFinite(x)) return;
            const why = `advantages, row ${b}, token ${t}`;
            if (p.normalize) expect(reach.whitening, why).toBe(true);
            else if (p.estimator === "gae") expect(reach.advantages[b][t], why).toBe(1);
            else expect(reach.returns[b][t], why).toBe(1);
          });
        });
        // A NaN in a return the inputs cannot reach is caught, named by sequence and token.
        const b = reach.returns.findIndex((row) => row.includes(0));
        if (b < 0) return;
        const t = reach.returns[b].lastIndexOf(0);
        const broken = { ...result, returns: result.returns.map((row) => row.slice()) };
        broken.returns[b][t] = Number.NaN;
        expect(() => checkConventionOutputs(p, "cpu", broken, strategy)).toThrow(EngineOutputError);
        expect(() => checkConventionOutputs(p, "cpu", broken, strategy)).toThrow(`sequence ${b}, token ${t}`);
      }),
      { seed, numRuns: 60 },
    );
  }, 120_000);

  it("verl's cut keeps a NaN inside its segment, slime's chunk spreads it, and whitening spreads it over the batch", () => {
    const nan = Number.NaN;
    // One row of 8 tokens, a hole at token 4 (verl's segments: 0–3 and 4–7), NaN KL at token 5.
    const kl = Float32Array.from([0.1, 0.1, 0.1, 0.1, 0.1, nan, 0.1, 0.1]);
    const problem = (library: (typeof LIBRARIES)[number], normalize: boolean): ConventionProblem => ({
      library,
      estimator: "reinforce_pp",
      batch: {
        rewards: [1, 1],
        kl: [kl, new Float32Array(8)],
        lossMasks: [[1, 1, 1, 1, 0, 1, 1, 1], Array(8).fill(1)],
      },
      params: { gamma: 0.9, klCoef: 0.1, normalize },
      chunkSize: 4,
      allowNonFinite: true,
    });
    const reach = (library: (typeof LIBRARIES)[number], normalize = false) =>
      conventionReach(prepareConvention(problem(library, normalize)), "chunked");
    // verl: the segment 4–7 is scanned alone, padded to 4: one chunk, tokens 4–7 all lost; 0–3 kept.
    expect(Array.from(reach("verl").returns[0])).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
    // slime: KL·mask is NaN at 5; chunks of 4 from the end: 4–7 is token 5's chunk, then the carry takes 0–3.
    expect(Array.from(reach("slime").returns[0])).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    // per-token (the serial loop): only tokens 0–5, and nothing of row 1.
    const serial = conventionReach(prepareConvention(problem("slime", false)), "per-token");
    expect(Array.from(serial.returns[0])).toEqual([1, 1, 1, 1, 1, 1, 0, 0]);
    expect(serial.returns[1].includes(1)).toBe(false);
    expect(reach("slime").whitening).toBe(false);
    expect(reach("slime", true).whitening).toBe(true);
  });

  it("without the opt-in, a NaN input is still refused, naming sequence and token", () => {
    const problem: ConventionProblem = {
      library: "verl",
      estimator: "reinforce_pp",
      batch: { rewards: [1], kl: [Float32Array.from([0, Number.NaN])], lossMasks: [[1, 1]] },
      params: { gamma: 0.9, klCoef: 0.1, normalize: false },
      chunkSize: 4,
    };
    expect(() => prepareConvention(problem)).toThrow(ScanInputError);
    expect(() => prepareConvention(problem)).toThrow("kl has a non-finite value at row 0, token 1");
    const outcome = { rewards: [Number.NaN], kl: [new Float32Array(2)], lossMasks: [[1, 1]] };
    expect(() => prepareConvention({ ...problem, batch: outcome })).toThrow(
      "rewards has a non-finite value at sequence 0: NaN",
    );
  });
});
