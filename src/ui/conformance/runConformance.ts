import { type CaseVerdict, caseToProblem, checkCase } from "../../conformance";
import type { ScanProblem } from "../../core";
import type { EngineClient, ProblemResult } from "../../engine/client";
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

/**
 * Checks every case on the engine in ONE worker request (so a newer run supersedes it as a
 * whole, and ten thousand small cases cost one message out), each element within the float32
 * error bound of the strategy's algorithm;
 * `onRow` sees each case as soon as it is judged. A case the engine cannot take (a
 * library-convention case) is judged at once, with the reason. Resolves only when every case
 * has its verdict: an engine answer short of a case rejects.
 */
export async function runConformance(
  client: EngineClient,
  cases: ScanCase[],
  strategy: Strategy,
  onRow: (row: CaseRow, index: number) => void,
): Promise<ConformanceRun> {
  const judged: Promise<void>[] = [];
  const rows: CaseRow[] = new Array(cases.length);
  /** `result` is the worker's answer, or why the case never reached the worker. */
  const judge = async (index: number, result: ProblemResult | { refused: unknown }): Promise<void> => {
    const verdict = await checkCase(
      cases[index],
      () => {
        if ("refused" in result) throw result.refused;
        if (result.ok) return result.run.outputs;
        throw errorFromFailure(result.error);
      },
      "float32",
      STRATEGY_ALGORITHM[strategy],
    );
    const row: CaseRow =
      "ok" in result && result.ok ? { verdict, backend: result.run.backend, millis: result.run.millis } : { verdict };
    rows[index] = row;
    onRow(row, index);
  };
  const runnable: { index: number; problem: ScanProblem }[] = [];
  cases.forEach((c, index) => {
    try {
      runnable.push({ index, problem: caseToProblem(c, "float32") });
    } catch (refused) {
      judged.push(judge(index, { refused }));
    }
  });
  const outcome = await client.runProblems(
    runnable.map((r) => r.problem),
    strategy,
    (result) => {
      judged.push(judge(runnable[result.index].index, result));
    },
  );
  await Promise.all(judged);
  const missing = cases.length - judged.length;
  if (missing > 0) throw new Error(`the engine answered ${runnable.length - missing} of ${runnable.length} cases`);
  return { rows, backend: outcome.backend };
}
