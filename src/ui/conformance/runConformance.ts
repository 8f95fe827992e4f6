import {
  type CaseOutputs,
  type CaseVerdict,
  caseToConventionProblem,
  caseToProblem,
  checkCase,
} from "../../conformance";
import type { ConventionProblem, ScanProblem } from "../../core";
import type { ConventionProblemResult, EngineClient, ProblemResult } from "../../engine/client";
import { errorFromFailure } from "../../engine/client";
import { STRATEGY_ALGORITHM, type Strategy } from "../../engine/strategy";
import type { ScanCase } from "../../io/caseSchema";

/** A case's verdict, with where and how fast the engine ran it. */
export interface CaseRow {
  verdict: CaseVerdict;
  /** `tf.getBackend()` in the worker for this case; absent when the case failed before running. */
  backend?: string;
  millis?: number;
}

export interface ConformanceRun {
  /** Indexed like the cases. */
  rows: CaseRow[];
  /** The backend the worker reported at the end of the run. */
  backend: string;
}

/** The engine's answer for one case: a scan problem's or a convention problem's. */
type Answer = ProblemResult | (ConventionProblemResult & { chunkSize: number });

/**
 * Checks every case on the engine, each element within the float32 error bound of the strategy's
 * algorithm (a library-convention case: of the engine's batched scans with that algorithm), in
 * one worker request for the scan cases and one for the convention cases, sent back to back (so
 * a newer run supersedes this one as a whole, and ten thousand small cases cost one message out);
 * `onRow` sees each case as soon as it is judged. A case the engine cannot take (an input float32
 * cannot hold) is judged at once, with the reason. Resolves only when every case has its
 * verdict: an engine answer short of a case rejects.
 */
export async function runConformance(
  client: EngineClient,
  cases: ScanCase[],
  strategy: Strategy,
  onRow: (row: CaseRow, index: number) => void,
): Promise<ConformanceRun> {
  const judged: Promise<void>[] = [];
  const rows: CaseRow[] = new Array(cases.length);
  const algorithm = STRATEGY_ALGORITHM[strategy];
  /** `result` is the worker's answer, or why the case never reached the worker. */
  const judge = async (index: number, result: Answer | { refused: unknown }): Promise<void> => {
    const verdict = await checkCase(
      cases[index],
      (): CaseOutputs => {
        if ("refused" in result) throw result.refused;
        if (!result.ok) throw errorFromFailure(result.error);
        if ("outputs" in result.run) return result.run.outputs;
        const order = { algorithm, chunkSize: (result as { chunkSize: number }).chunkSize };
        return { kind: "convention", ...result.run.result, order };
      },
      "float32",
      algorithm,
    );
    const row: CaseRow =
      "ok" in result && result.ok ? { verdict, backend: result.run.backend, millis: result.run.millis } : { verdict };
    rows[index] = row;
    onRow(row, index);
  };
  const scans: { index: number; problem: ScanProblem }[] = [];
  const conventions: { index: number; problem: ConventionProblem }[] = [];
  cases.forEach((c, index) => {
    try {
      if (c.kind === "convention") conventions.push({ index, problem: caseToConventionProblem(c, "float32") });
      else scans.push({ index, problem: caseToProblem(c, "float32") });
    } catch (refused) {
      judged.push(judge(index, { refused }));
    }
  });
  let backend: string | undefined;
  if (scans.length > 0 || conventions.length === 0) {
    const outcome = await client.runProblems(
      scans.map((r) => r.problem),
      strategy,
      (result) => {
        judged.push(judge(scans[result.index].index, result));
      },
    );
    backend = outcome.backend;
  }
  if (conventions.length > 0) {
    // Chunk sizes read before the problems' arrays move to the worker.
    const chunkSizes = conventions.map((r) => r.problem.chunkSize);
    const outcome = await client.runConventions(
      conventions.map((r) => r.problem),
      strategy,
      (result) => {
        judged.push(judge(conventions[result.index].index, { ...result, chunkSize: chunkSizes[result.index] }));
      },
    );
    backend = outcome.backend;
  }
  await Promise.all(judged);
  const missing = cases.length - judged.length;
  const sent = scans.length + conventions.length;
  if (missing > 0) throw new Error(`the engine answered ${sent - missing} of ${sent} cases`);
  return { rows, backend: backend ?? "" };
}
