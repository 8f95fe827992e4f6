import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  type CaseOutputs,
  type CaseVerdict,
  caseToConventionProblem,
  caseToProblem,
  checkCase,
} from "../../conformance";
import { conventionCase } from "../../conformance/conventionTestCases";
import {
  type ConventionProblem,
  runConvention,
  type ScanAlgorithm,
  ScanInputError,
  type ScanProblem,
  solve,
} from "../../core";
import { type EngineClient, type ProblemFailure, SupersededError } from "../../engine/client";
import { buildCase } from "../../io/caseBuilder";
import type { ScanCase } from "../../io/caseSchema";
import { STRATEGY_ALGORITHM } from "../../names/strategies";
import { CaseBook, preparedBuffers } from "./caseBook";
import { type CaseRow, runConformance } from "./runConformance";

/** The public file's cases, through JSON as the page reads them. */
function publicCases(): ScanCase[] {
  return JSON.parse(readFileSync(new URL("../../../cases/public_cases.json", import.meta.url), "utf8")).cases;
}

/** A convention case (its arrays plain, as read from a file) for the second engine request. */
function convention(name: string): ScanCase {
  const batch = {
    rewards: Float64Array.of(1, -0.5),
    kl: [Float64Array.of(0.01, 0.02, 0.03), Float64Array.of(0.1, 0.05)],
    lossMasks: [
      [1, 0, 1],
      [1, 1],
    ],
  };
  const c = conventionCase(name, "verl", "reinforce_pp", batch, { gamma: 0.99, klCoef: 0.1, normalize: false });
  return JSON.parse(JSON.stringify(c));
}

function failureOf(error: unknown): ProblemFailure {
  const e = error as Error;
  return { name: e.name, message: e.message, referenceType: e instanceof ScanInputError ? e.referenceType : undefined };
}

/** What the fake engine computes: core's float32 chunked scan, and core's conventions. */
const solveScan = (p: ScanProblem): CaseOutputs => solve(p, "chunked").outputs;
const solveConvention = (p: ConventionProblem): CaseOutputs => {
  const { library, estimator, batch, params } = p;
  return { kind: "convention", ...runConvention(library, estimator, batch, params) };
};

/** An engine client answering in order, in process; `skip` leaves out the answers of those problem indices. */
function fakeEngine(skip = new Set<number>()): EngineClient {
  const answer = <P>(problems: P[], onResult: (r: unknown) => void, compute: (p: P) => CaseOutputs) => {
    problems.forEach((problem, index) => {
      if (skip.has(index)) return;
      try {
        const outputs = compute(problem);
        const run = outputs.kind === "convention" ? { result: outputs } : { outputs };
        onResult({ index, ok: true, run: { ...run, backend: "fake", millis: 1 } });
      } catch (error) {
        onResult({ index, ok: false, error: failureOf(error) });
      }
    });
    return Promise.resolve({ results: [], backend: "fake", report: {} });
  };
  return {
    ready: () => Promise.resolve({ requested: "wasm", backend: "wasm", fellBack: false }),
    runProblems: (problems: ScanProblem[], _: unknown, onResult: (r: unknown) => void) =>
      answer(problems, onResult, solveScan),
    runConventions: (problems: ConventionProblem[], _: unknown, onResult: (r: unknown) => void) =>
      answer(problems, onResult, solveConvention),
  } as unknown as EngineClient;
}

/** The verdicts as the page judged them before the book moved to a worker: every case on the main thread. */
async function judgedInPlace(cases: ScanCase[]): Promise<CaseVerdict[]> {
  const algorithm = STRATEGY_ALGORITHM.chunked;
  return Promise.all(
    cases.map((c) =>
      checkCase(
        c,
        (): CaseOutputs => {
          if (c.kind !== "convention") return solveScan(caseToProblem(c, "float32"));
          const chunkSize = caseToConventionProblem(c, "float32").chunkSize;
          const outputs = solveConvention(caseToConventionProblem(c, "float32"));
          return { ...outputs, order: { algorithm, chunkSize } } as CaseOutputs;
        },
        "float32",
        algorithm,
      ),
    ),
  );
}

describe("a conformance run through the file's case book", () => {
  it("runs and judges chunked where the engine's backend cannot run the strategy asked for (fused off webgpu)", async () => {
    const asked: unknown[] = [];
    const engine = fakeEngine();
    const spying = {
      ...engine,
      ready: engine.ready,
      runProblems: (problems: ScanProblem[], strategy: unknown, onResult: (r: unknown) => void) => {
        asked.push(strategy);
        return engine.runProblems(problems, strategy as never, onResult as never);
      },
      runConventions: (problems: ConventionProblem[], strategy: unknown, onResult: (r: unknown) => void) => {
        asked.push(strategy);
        return engine.runConventions(problems, strategy as never, onResult as never);
      },
    } as unknown as EngineClient;
    const run = await runConformance(spying, new CaseBook(cases), cases.length, "fused", () => {});
    // The client is asked for fused (it replaces it, and says so); the verdicts use chunked's bound.
    expect(new Set(asked)).toEqual(new Set(["fused"]));
    expect(run.rows.map((row) => row.verdict)).toEqual(await judgedInPlace(cases));
  });

  const overflow = buildCase(
    { kind: "discounted", rewards: { rows: 1, cols: 2, data: Float64Array.of(1, 2) }, discount: 0.9, chunkSize: 2 },
    "overflows_float32",
  );
  (overflow.inputs as { rewards: number[] }).rewards[1] = 1e39;
  const gaeMismatch = buildCase(
    {
      kind: "gae",
      rewards: { rows: 1, cols: 3, data: Float64Array.of(1, 2, 3) },
      values: { rows: 1, cols: 2, data: Float64Array.of(1, 2) },
      gamma: 0.9,
      lambd: 0.9,
      chunkSize: 2,
    },
    "expects_an_error",
  );
  // Built from a shape the file then contradicts: the engine raises the reference's ValueError.
  gaeMismatch.expect_error = "ValueError: values has 2 values but its shape [1, 3] needs 3";
  const cases = [convention("verl_first"), ...publicCases(), overflow, gaeMismatch, convention("verl_last")];

  it("gives every case, scan, convention, refused or expected to fail, the verdict the page gave in place", async () => {
    const rows: CaseRow[] = [];
    const run = await runConformance(fakeEngine(), new CaseBook(cases), cases.length, "chunked", (row, i) => {
      rows[i] = row;
    });
    const verdicts = await judgedInPlace(cases);
    expect(run.rows.map((r) => r.verdict)).toEqual(verdicts);
    expect(rows).toEqual(run.rows);
    expect(verdicts.filter((v) => !v.passed).map((v) => v.name)).toEqual(["overflows_float32"]);
    expect(verdicts.at(-2)).toMatchObject({ passed: true, detail: `raised ${gaeMismatch.expect_error}` });
    const refused = run.rows[cases.indexOf(overflow)];
    expect(refused.verdict.detail).toMatch(/^inputs\.rewards\[1\] \(row 0, token 1\): 1e\+39 overflows float32/);
    expect(refused.backend).toBeUndefined();
    expect(run.rows[0]).toMatchObject({ backend: "fake", millis: 1 });
  });

  it("fails a wrong answer at the element it is wrong", async () => {
    const book = new CaseBook(publicCases().filter((c) => c.kind === "discounted" && c.shape[1] > 3));
    const { scans } = await book.prepare("chunked");
    const outputs = solveScan(scans[0].problem) as { kind: "discounted"; returns: Float32Array };
    outputs.returns[3] += 1;
    const verdict = await book.judge(0, { ok: true, outputs }, "chunked");
    expect(verdict.passed).toBe(false);
    expect(verdict.detail).toMatch(/^worst output: returns\[3\] is off by/);
  });

  it("rejects a run the engine answered short, with no verdict for the missing case", async () => {
    const few = publicCases().slice(0, 3);
    await expect(runConformance(fakeEngine(new Set([1])), new CaseBook(few), 3, "chunked", () => {})).rejects.toThrow(
      "the engine answered 2 of 3 cases",
    );
  });

  it("lets a superseded run's verdicts fail quietly when its file is closed under it (no unhandled rejection)", async () => {
    const book = new CaseBook(publicCases().slice(0, 2));
    const closing = {
      prepare: (algorithm: ScanAlgorithm) => book.prepare(algorithm),
      judge: () => Promise.reject(new Error("many.json: the file was closed")),
    };
    const superseded = {
      ready: () => Promise.resolve({ requested: "wasm", backend: "wasm", fellBack: false }),
      runProblems: (problems: ScanProblem[], _: unknown, onResult: (r: unknown) => void) => {
        onResult({ index: 0, ok: true, run: { outputs: solveScan(problems[0]), backend: "fake", millis: 1 } });
        return Promise.reject(new SupersededError());
      },
    } as unknown as EngineClient;
    await expect(runConformance(superseded, closing, 2, "chunked", () => {})).rejects.toThrow(SupersededError);
    // Node reports an unhandled rejection once the microtasks drain, before the next turn of the
    // event loop: one turn later it would have failed the run.
    await new Promise((resolve) => setImmediate(resolve));
  });

  it("hands over problems whose every array can move to a worker, so none is copied on the page", async () => {
    const { scans, conventions } = await new CaseBook(cases).prepare("chunked");
    const arrays = [...scans, ...conventions].flatMap(({ problem }) => {
      const found: unknown[] = [];
      const walk = (value: unknown) => {
        if (ArrayBuffer.isView(value)) found.push(value);
        else if (Array.isArray(value) && value.every((v) => typeof v === "number")) found.push(value);
        else if (Array.isArray(value) || (value !== null && typeof value === "object"))
          Object.values(value).forEach(walk);
      };
      walk(problem);
      return found;
    });
    const movable = new Set(preparedBuffers({ scans, conventions, refused: [] }));
    const stuck = arrays.filter((a) => !ArrayBuffer.isView(a) || !movable.has(a.buffer as ArrayBuffer));
    expect(arrays.length).toBeGreaterThan(40);
    expect(stuck).toEqual([]);
  });
});
