import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { caseToConventionProblem } from "../../conformance/caseProblem";
import {
  CONVENTION_CHUNK_SIZE,
  type ConventionProblem,
  type ConventionResult,
  conventionErrorBounds,
  runConvention,
  ScanInputError,
} from "../../core";
import { parseCaseFile } from "../../io/caseFile";
import type { ConventionCase } from "../../io/caseSchema";
import { runsOn, STRATEGIES, STRATEGY_ALGORITHM, type Strategy } from "../../names/strategies";
import { useCpuBackend } from "../../testing/engineTestKit";
import { runConventionProblem } from "./runConventionProblem";

const file = parseCaseFile(
  readFileSync(new URL("../../../cases/conventions_public.json", import.meta.url), "utf8"),
  "conventions",
);
const cases = file.cases.filter((c): c is ConventionCase => c.kind === "convention");
const strategies = STRATEGIES.filter((s) => runsOn(s, "cpu"));

/** The case as the conformance view builds it (float32 inputs), at `chunkSize` rather than slime's 128. */
function problemOf(c: ConventionCase, chunkSize = CONVENTION_CHUNK_SIZE): ConventionProblem {
  return { ...caseToConventionProblem(c, "float32"), chunkSize };
}

const float64 = (p: ConventionProblem) => ({
  ...p,
  batch: {
    ...p.batch,
    kl: p.batch.kl.map((row) => Float64Array.from(row)),
    values: p.batch.values?.map((row) => Float64Array.from(row)),
  },
});

/**
 * Every output element within its bound for the batched scans of `strategy`, against core's
 * float64 convention; returns the worst error as a fraction of its bound, per output.
 */
function expectWithinBounds(p: ConventionProblem, strategy: Strategy, actual: ConventionResult) {
  const exact = float64(p);
  const truth = runConvention(p.library, p.estimator, exact.batch, p.params);
  const order = { algorithm: STRATEGY_ALGORITHM[strategy], chunkSize: p.chunkSize };
  const bounds = conventionErrorBounds(p.library, p.estimator, exact.batch, p.params, "float32", order);
  expect(actual.rewardIndex).toEqual(truth.rewardIndex);
  const worst: Record<string, number> = {};
  for (const name of ["tokenLevelRewards", "returns", "advantages"] as const) {
    worst[name] = 0;
    truth[name].forEach((row, b) => {
      expect(actual[name][b].length, `${name}[${b}]`).toBe(row.length);
      row.forEach((x, t) => {
        const error = Math.abs(actual[name][b][t] - x);
        const bound = bounds[name][b][t];
        if (!(error <= bound)) {
          expect.fail(
            `${p.library} ${p.estimator} ${strategy} ${name}[${b}][${t}]: ${actual[name][b][t]} vs ${x}, bound ${bound}`,
          );
        }
        worst[name] = Math.max(worst[name], error === 0 ? 0 : error / bound);
      });
    });
  }
  return worst;
}

beforeAll(useCpuBackend);

describe("conventions on the engine (tfjs cpu) against core", () => {
  it("has the 12 public convention cases", () => {
    expect(cases).toHaveLength(12);
  });

  for (const c of cases) {
    for (const strategy of strategies) {
      it(`${c.name} on ${strategy}: every output within its bound`, async () => {
        const p = problemOf(c);
        const run = await runConventionProblem(p, strategy);
        expect(run.backend).toBe("cpu");
        const worst = expectWithinBounds(p, strategy, run.result);
        // The case's own expected values too (what the libraries' float64 runs produced).
        const expected = c.expected as NonNullable<ConventionCase["expected"]>;
        const tolerance = c.tolerance?.float32 ?? Number.POSITIVE_INFINITY;
        run.result.returns.forEach((row, b) => {
          row.forEach((x, t) => {
            expect(Math.abs(x - expected.returns[b][t])).toBeLessThanOrEqual(tolerance);
            expect(Math.abs(run.result.advantages[b][t] - expected.advantages[b][t])).toBeLessThanOrEqual(tolerance);
          });
        });
        expect(Math.max(...Object.values(worst))).toBeLessThanOrEqual(1);
      });
    }
  }

  it("a small chunk size puts the segment and compaction layouts across many chunks, still within bound", async () => {
    for (const c of cases.filter((x) => x.library === "verl")) {
      for (const strategy of strategies) {
        const p = problemOf(c, 4);
        expectWithinBounds(p, strategy, (await runConventionProblem(p, strategy)).result);
      }
    }
  });

  it("fails as core does: slime's fully masked sequence, verl's whitening over one token", async () => {
    const masked: ConventionProblem = {
      library: "slime",
      estimator: "reinforce_pp",
      batch: { rewards: [1, 2], kl: [Float32Array.of(0.1, 0.2), Float32Array.of(0.3)], lossMasks: [[1, 0], [0]] },
      params: { gamma: 0.9, klCoef: 0.1, normalize: false },
      chunkSize: 128,
    };
    await expect(runConventionProblem(masked, "chunked")).rejects.toThrow(
      new ScanInputError("Sequence at index 1 is fully masked.", "AssertionError"),
    );
    const single = { ...masked, library: "verl" as const, params: { ...masked.params, normalize: true } };
    await expect(runConventionProblem(single, "two-level")).rejects.toThrow(
      "at least 2 valid tokens are needed to whiten advantages, got 1",
    );
  });
});
