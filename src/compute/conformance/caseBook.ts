import {
  type CaseOutputs,
  type CaseVerdict,
  caseToConventionProblem,
  caseToProblem,
  checkCase,
} from "../../conformance";
import {
  addConventionArrays,
  addProblemArrays,
  bufferCollector,
  type ConventionProblem,
  type ScanAlgorithm,
  ScanInputError,
  type ScanProblem,
} from "../../core";
import type { ProblemFailure } from "../../engine/client";
import type { GoldenCase } from "../../io/caseSchema";

/** What the page shows of a case before and beside its verdict: the rest stays with the file's worker. */
export type CaseInfo = Pick<GoldenCase, "name" | "kind">;

/** A file's cases as engine problems, by their index in the file, and the cases refused before the engine. */
export interface PreparedCases {
  scans: { index: number; problem: ScanProblem }[];
  conventions: { index: number; problem: ConventionProblem }[];
  /**
   * Cases judged at once, without the engine: those whose inputs it cannot take (float32 cannot
   * hold them), with the reason, and slime_dump cases, whose values under test are the dump's own.
   */
  refused: { index: number; verdict: CaseVerdict }[];
}

/** What the engine made of one case: its outputs, or the error it failed with. */
export type EngineAnswer = { ok: true; outputs: CaseOutputs } | { ok: false; error: ProblemFailure };

/**
 * The cases of one file and the checks on them: what the conformance view needs done with
 * numbers. It lives in the file's worker (caseFileWorker.ts), so a 64 × 32768 case (several arrays
 * of 2 million numbers, each element held to its own bound) never blocks the page; the page gets
 * problems to hand on to the engine and verdicts to show.
 */
export class CaseBook {
  constructor(private readonly cases: readonly GoldenCase[]) {}

  infos(): CaseInfo[] {
    return this.cases.map(({ name, kind }) => ({ name, kind }));
  }

  /** Fresh problems on every call: the page moves their arrays to the engine worker. */
  async prepare(algorithm: ScanAlgorithm): Promise<PreparedCases> {
    const prepared: PreparedCases = { scans: [], conventions: [], refused: [] };
    for (const [index, c] of this.cases.entries()) {
      if (c.kind === "slime_dump") {
        prepared.refused.push({ index, verdict: await checkCase(c, noSolver, "float32", algorithm) });
        continue;
      }
      try {
        if (c.kind === "convention") {
          prepared.conventions.push({ index, problem: movableConvention(caseToConventionProblem(c, "float32")) });
        } else prepared.scans.push({ index, problem: movableScan(caseToProblem(c, "float32")) });
      } catch (refused) {
        const verdict = await checkCase(c, () => Promise.reject(refused), "float32", algorithm);
        prepared.refused.push({ index, verdict });
      }
    }
    return prepared;
  }

  /** Holds the engine's answer for case `index` to the float32 error bound of `algorithm`. */
  judge(index: number, answer: EngineAnswer, algorithm: ScanAlgorithm): Promise<CaseVerdict> {
    const c = this.cases[index];
    if (!c) return Promise.reject(new Error(`the file has no case ${index}`));
    return checkCase(
      c,
      (): CaseOutputs => {
        if (!answer.ok) throw errorFromFailure(answer.error);
        return answer.outputs;
      },
      "float32",
      algorithm,
    );
  }
}

/**
 * Outcome rewards and loss masks come from the file as plain arrays, which every hop (here to the
 * page, the page to the engine) would copy element by element on the page's thread: as float64
 * arrays, which hold every JSON number exactly, they move instead.
 */
function movableScan(problem: ScanProblem): ScanProblem {
  if (problem.kind !== "reinforce_pp") return problem;
  const { rewards, lossMasks } = problem.batch;
  return { ...problem, batch: { ...problem.batch, rewards: float64(rewards), lossMasks: lossMasks.map(float64) } };
}

function movableConvention(problem: ConventionProblem): ConventionProblem {
  const { rewards, lossMasks } = problem.batch;
  return { ...problem, batch: { ...problem.batch, rewards: float64(rewards), lossMasks: lossMasks.map(float64) } };
}

function float64(values: ArrayLike<number>): Float64Array {
  return Float64Array.from(values as ArrayLike<number>);
}

/**
 * The engine's error re-created, as the engine client's errorFromFailure does (a ScanInputError
 * keeps its reference type, so `expect_error` can match it); that module starts workers, which
 * this one, living in a worker itself, must not pull in.
 */
function errorFromFailure(failure: ProblemFailure): Error {
  if (failure.referenceType !== undefined) return new ScanInputError(failure.message, failure.referenceType);
  const error = new Error(failure.message);
  error.name = failure.name;
  return error;
}

/** The buffers of an engine answer's arrays, to move to the file's worker instead of copying them. */
export function answerBuffers(answer: EngineAnswer): ArrayBuffer[] {
  if (!answer.ok) return [];
  const { add, buffers } = bufferCollector();
  for (const value of Object.values(answer.outputs)) {
    if (Array.isArray(value)) value.forEach(add);
    else add(value);
  }
  return [...buffers];
}

/** The buffers of prepared problems' arrays, to move from the file's worker to the page. */
export function preparedBuffers(prepared: PreparedCases): ArrayBuffer[] {
  const { add, buffers } = bufferCollector();
  addProblemArrays(
    add,
    prepared.scans.map((c) => c.problem),
  );
  addConventionArrays(
    add,
    prepared.conventions.map((c) => c.problem),
  );
  return [...buffers];
}

/** The solver a slime_dump case is given: checkCase never calls it (the dump's values are under test). */
function noSolver(): never {
  throw new Error("a slime_dump case runs no solver");
}
