import { type CaseVerdict, caseToProblem, checkCase } from "../../conformance";
import type { EngineClient, ProblemResult } from "../../engine/client";
import { errorFromFailure } from "../../engine/client";
import type { Strategy } from "../../engine/strategy";
import type { ScanCase } from "../../io/caseSchema";

/** A case's verdict, with where and how fast the engine ran it. */
export interface CaseRow {
  verdict: CaseVerdict;
  /** `tf.getBackend()` in the worker for this case; absent when the case failed before running. */
  backend?: string;
  millis?: number;
}

export interface ConformanceRun {
  rows: CaseRow[];
  /** The backend the worker reported at the end of the run. */
  backend: string;
}

/**
 * Checks every case on the engine in ONE worker request (so a newer run supersedes it as a
 * whole), against the float32 tolerance; `onRow` sees each case as soon as it is judged.
 */
export async function runConformance(
  client: EngineClient,
  cases: ScanCase[],
  strategy: Strategy,
  onRow: (row: CaseRow, index: number) => void,
): Promise<ConformanceRun> {
  const problems = cases.map((c) => caseToProblem(c, "float32"));
  const judged: Promise<CaseRow>[] = [];
  const judge = async (result: ProblemResult): Promise<CaseRow> => {
    const c = cases[result.index];
    const verdict = await checkCase(
      c,
      () => {
        if (result.ok) return result.run.outputs;
        throw errorFromFailure(result.error);
      },
      "float32",
    );
    const row: CaseRow = result.ok ? { verdict, backend: result.run.backend, millis: result.run.millis } : { verdict };
    onRow(row, result.index);
    return row;
  };
  const outcome = await client.runProblems(problems, strategy, (result) => {
    judged.push(judge(result));
  });
  return { rows: await Promise.all(judged), backend: outcome.backend };
}
