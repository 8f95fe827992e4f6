import { readFileSync } from "node:fs";
import * as tf from "@tensorflow/tfjs-core";
import { beforeAll, describe, expect, it } from "vitest";
import { caseToProblem, checkCases, summaryLine } from "../conformance";
import { ScanInputError, type ScanProblem, solve } from "../core";
import { parseCaseFile } from "../io/caseFile";
import type { ScanCase } from "../io/caseSchema";
import { strategiesFor } from "../names/strategies";
import { expectWithinBound, maskWithHoles, normals, seeded, useCpuBackend } from "../testing/engineTestKit";
import { runProblem } from "./runProblem";

/** Every strategy the cpu backend runs (fused is webgpu-only: e2e/fused.spec.ts tests it). */
const STRATEGIES = strategiesFor("cpu");

const file = parseCaseFile(readFileSync(new URL("../../cases/public_cases.json", import.meta.url), "utf8"), "public");
const random = seeded(3);
const rect = (rows: number, cols: number) => ({ rows, cols, data: normals(random, rows * cols) });
const ragged = (lengths: number[]) => ({
  rewards: lengths.map(() => Math.fround(random() * 4 - 2)),
  kl: lengths.map((L) => normals(random, L, 0.1)),
  lossMasks: lengths.map((L) => maskWithHoles(random, L)),
});

/** Holds every output of a run to its error bound around core's float64 serial truth. */
async function expectNearTruth(problem: ScanProblem, strategy: (typeof STRATEGIES)[number]): Promise<void> {
  const run = await runProblem(problem, strategy);
  expectWithinBound(problem, strategy, run.outputs, solve(problem, "serial").outputs);
}

/** What core's chunked solver throws for the problem (it must throw). */
function coreError(problem: ScanProblem): ScanInputError {
  try {
    solve(problem, "chunked");
  } catch (error) {
    if (error instanceof ScanInputError) return error;
    throw error;
  }
  throw new Error("core accepted a problem the test calls bad");
}

const f32 = (values: number[]) => Float32Array.from(values);
const badProblems: [string, ScanProblem][] = [
  ["NaN discount", { kind: "discounted", rewards: rect(1, 4), discount: Number.NaN, chunkSize: 4 }],
  ["chunk size 0", { kind: "discounted", rewards: rect(1, 4), discount: 0.9, chunkSize: 0 }],
  ["chunk size 2.5", { kind: "discounted", rewards: rect(1, 4), discount: 0.9, chunkSize: 2.5 }],
  [
    "NaN reward",
    { kind: "discounted", rewards: { rows: 2, cols: 2, data: f32([1, 2, 3, Number.NaN]) }, discount: 1, chunkSize: 2 },
  ],
  [
    "data of the wrong length",
    { kind: "discounted", rewards: { rows: 2, cols: 3, data: f32([1, 2]) }, discount: 1, chunkSize: 2 },
  ],
  ["NaN lambda", { kind: "gae", rewards: rect(1, 3), values: rect(1, 3), gamma: 1, lambd: Number.NaN, chunkSize: 2 }],
  ["infinite gamma", { kind: "gae", rewards: rect(1, 3), values: rect(1, 3), gamma: Infinity, lambd: 1, chunkSize: 2 }],
  [
    "values of another shape",
    { kind: "gae", rewards: rect(2, 3), values: rect(3, 2), gamma: 1, lambd: 1, chunkSize: 2 },
  ],
  [
    "γλ overflowing",
    { kind: "gae", rewards: rect(1, 3), values: rect(1, 3), gamma: 1e200, lambd: 1e200, chunkSize: 2 },
  ],
  [
    "residuals overflowing float32",
    {
      kind: "gae",
      rewards: { rows: 1, cols: 2, data: f32([3e38, 0]) },
      values: { rows: 1, cols: 2, data: f32([0, 3e38]) },
      gamma: 1,
      lambd: 1,
      chunkSize: 2,
    },
  ],
  [
    "NaN gamma (REINFORCE++)",
    { kind: "reinforce_pp", batch: ragged([3]), klCoef: 0.1, gamma: Number.NaN, chunkSize: 2 },
  ],
  ["NaN kl_coef", { kind: "reinforce_pp", batch: ragged([3]), klCoef: Number.NaN, gamma: 1, chunkSize: 2 }],
  [
    "mask value 2",
    {
      kind: "reinforce_pp",
      batch: { rewards: [1], kl: [f32([0, 0])], lossMasks: [[1, 2]] },
      klCoef: 0.1,
      gamma: 1,
      chunkSize: 2,
    },
  ],
  [
    "mask of another length",
    {
      kind: "reinforce_pp",
      batch: { rewards: [1], kl: [f32([0, 0])], lossMasks: [[1]] },
      klCoef: 0.1,
      gamma: 1,
      chunkSize: 2,
    },
  ],
  [
    "rewards count mismatch",
    {
      kind: "reinforce_pp",
      batch: { rewards: [1, 2], kl: [f32([0])], lossMasks: [[1]] },
      klCoef: 0.1,
      gamma: 1,
      chunkSize: 2,
    },
  ],
  ["REINFORCE++ chunk size 0", { kind: "reinforce_pp", batch: ragged([3]), klCoef: 0.1, gamma: 1, chunkSize: 0 }],
  [
    "token rewards overflowing float32",
    {
      kind: "reinforce_pp",
      batch: { rewards: [1], kl: [f32([1e10, 1])], lossMasks: [[1, 1]] },
      klCoef: 1e38,
      gamma: 1,
      chunkSize: 2,
    },
  ],
];

beforeAll(useCpuBackend);

describe.each(STRATEGIES)("the %s strategy", (strategy) => {
  it("passes all 33 public golden cases within the float32 tolerance", async () => {
    const solver = (c: ScanCase) => runProblem(caseToProblem(c, "float32"), strategy).then((r) => r.outputs);
    const verdicts = await checkCases(file.cases, solver, "float32");
    expect(verdicts.filter((v) => !v.passed)).toEqual([]);
    expect(summaryLine(verdicts)).toBe("33 passed, 0 failed");
  });

  it("reports the backend that ran and the wall time", async () => {
    const run = await runProblem({ kind: "discounted", rewards: rect(2, 10), discount: 0.9, chunkSize: 4 }, strategy);
    expect(run.backend).toBe(tf.getBackend());
    expect(run.millis).toBeGreaterThanOrEqual(0);
  });

  it.each([
    ["chunk size 1", 0.97, 1],
    ["chunk size above T", 0.97, 512],
    ["discount 1", 1, 16],
    ["a partial last chunk", 0.9, 7],
  ])("matches the float64 truth with %s", async (_name, discount, chunkSize) => {
    await expectNearTruth({ kind: "discounted", rewards: rect(3, 300), discount, chunkSize }, strategy);
    await expectNearTruth(
      { kind: "gae", rewards: rect(2, 200), values: rect(2, 200), gamma: discount, lambd: 0.95, chunkSize },
      strategy,
    );
    await expectNearTruth(
      { kind: "reinforce_pp", batch: ragged([5, 300, 129, 1]), klCoef: 0.05, gamma: discount, chunkSize },
      strategy,
    );
  });

  it("returns the rewards themselves for discount 0 (slime's identity branch)", async () => {
    const rewards = rect(3, 130);
    const run = await runProblem({ kind: "discounted", rewards, discount: 0, chunkSize: 16 }, strategy);
    expect(run.outputs).toEqual({ kind: "discounted", returns: Float32Array.from(rewards.data) });
    await expectNearTruth(
      { kind: "gae", rewards: rect(2, 40), values: rect(2, 40), gamma: 0.9, lambd: 0, chunkSize: 8 },
      strategy,
    );
  });

  it("gives empty results for T = 0 and for empty batches", async () => {
    const empty = new Float32Array(0);
    for (const rewards of [rect(2, 0), rect(0, 5)]) {
      const run = await runProblem({ kind: "discounted", rewards, discount: 0.99, chunkSize: 128 }, strategy);
      expect(run.outputs).toEqual({ kind: "discounted", returns: empty });
      expect(run.trace.localScans).toEqual(empty);
      expect(run.trace.carriesIn).toEqual(empty);
    }
    const gae = await runProblem(
      { kind: "gae", rewards: rect(2, 0), values: rect(2, 0), gamma: 1, lambd: 1, chunkSize: 4 },
      strategy,
    );
    expect(gae.outputs).toEqual({ kind: "gae", advantages: empty, returns: empty });
    expect(gae.trace.nChunks).toBe(0);
    const batch = { rewards: [], kl: [], lossMasks: [] };
    const rpp = await runProblem({ kind: "reinforce_pp", batch, klCoef: 0.1, gamma: 0.99, chunkSize: 128 }, strategy);
    expect(rpp.outputs).toEqual({ kind: "reinforce_pp", returns: [], tokenLevelRewards: [] });
  });

  it("raises the fully masked sequence exactly as slime does", async () => {
    const batch = {
      rewards: [1, 2],
      kl: [f32([0.1, 0.2]), f32([0.3, 0.4, 0.5])],
      lossMasks: [
        [1, 0],
        [0, 0, 0],
      ],
    };
    const error = await runProblem(
      { kind: "reinforce_pp", batch, klCoef: 0.1, gamma: 0.99, chunkSize: 128 },
      strategy,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScanInputError);
    expect((error as ScanInputError).referenceText).toBe("AssertionError: Sequence at index 1 is fully masked.");
  });

  it.each(badProblems)("rejects %s with core's own error", async (_name, problem) => {
    const expected = coreError(problem);
    const error = await runProblem(problem, strategy).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScanInputError);
    expect((error as ScanInputError).referenceText).toBe(expected.referenceText);
  });

  it("rejects a float64 input that overflows float32, as core does for the float32 problem", async () => {
    const rewards = { rows: 1, cols: 2, data: Float64Array.from([1, 1e39]) };
    const error = await runProblem({ kind: "discounted", rewards, discount: 1, chunkSize: 2 }, strategy).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(ScanInputError);
    expect((error as Error).message).toBe("rewards has a non-finite value at row 0, token 1: Infinity");
  });

  it("takes float64 inputs as their float32 values", async () => {
    const rewards = rect(2, 77);
    const as32 = { ...rewards, data: Float32Array.from(rewards.data) };
    const run64 = await runProblem({ kind: "discounted", rewards, discount: 0.95, chunkSize: 8 }, strategy);
    const run32 = await runProblem({ kind: "discounted", rewards: as32, discount: 0.95, chunkSize: 8 }, strategy);
    expect(run64.outputs).toEqual(run32.outputs);
  });
});

it("rejects an unknown strategy", async () => {
  const problem: ScanProblem = { kind: "discounted", rewards: rect(1, 2), discount: 1, chunkSize: 2 };
  await expect(runProblem(problem, "serial" as never)).rejects.toThrow(/strategy must be one of/);
});

it("refuses to run, rather than pick a backend itself, when the chosen one did not start", async () => {
  const problem: ScanProblem = { kind: "discounted", rewards: rect(1, 2), discount: 1, chunkSize: 2 };
  tf.registerBackend("broken-for-test", () => {
    throw new Error("no adapter");
  });
  try {
    expect(await tf.setBackend("broken-for-test")).toBe(false);
    await expect(runProblem(problem, "chunked")).rejects.toThrow(/'broken-for-test' did not initialise/);
  } finally {
    tf.removeBackend("broken-for-test");
    await useCpuBackend();
  }
  expect((await runProblem(problem, "chunked")).backend).toBe("cpu");
});

it("refuses the fused strategy off webgpu, naming the backend and what runs there", async () => {
  const problem: ScanProblem = { kind: "discounted", rewards: rect(1, 4), discount: 0.9, chunkSize: 2 };
  const error = await runProblem(problem, "fused").catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ScanInputError);
  expect((error as Error).message).toBe(
    "the fused strategy runs only on webgpu, and the engine runs on cpu here; choose one of per-token, chunked, two-level",
  );
});

describe.each(STRATEGIES)("without a trace (%s)", (strategy) => {
  it("returns the same outputs and no trace", async () => {
    const problems: ScanProblem[] = [
      { kind: "discounted", rewards: rect(3, 37), discount: 0.95, chunkSize: 8 },
      { kind: "gae", rewards: rect(2, 20), values: rect(2, 20), gamma: 0.99, lambd: 0.9, chunkSize: 4 },
    ];
    for (const problem of problems) {
      const traced = await runProblem(problem, strategy);
      const bare = await runProblem(problem, strategy, { trace: false });
      expect(bare.outputs).toEqual(traced.outputs);
      expect(bare.trace).toBeUndefined();
      expect(traced.trace?.localScans.length).toBeGreaterThan(0);
    }
  });
});
