import type { CaseVerdict } from "../../conformance";
import type { ScanAlgorithm } from "../../core";
import type { ConventionProblemResult, EngineClient, ProblemResult } from "../../engine/client";
import { STRATEGY_ALGORITHM, type Strategy, strategyOn } from "../../names/strategies";
import type { EngineAnswer, PreparedCases } from "./caseBook";

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
 * Where the cases are and who judges them: a CaseFile (the file's worker) in the page, a CaseBook
 * in tests. The run only moves problems and answers between it and the engine.
 */
export interface CaseSource {
  prepare(algorithm: ScanAlgorithm): Promise<PreparedCases>;
  judge(index: number, answer: EngineAnswer, algorithm: ScanAlgorithm): Promise<CaseVerdict>;
}

/**
 * Checks every case on the engine, each element within the float32 error bound of the strategy's
 * algorithm (a library-convention case: of the engine's batched scans with that algorithm), in
 * one worker request for the scan cases and one for the convention cases, sent back to back (so
 * a newer run supersedes this one as a whole, and ten thousand small cases cost one message out);
 * `onRow` sees each case as soon as it is judged. A case the engine cannot take (an input float32
 * cannot hold) is judged at once, with the reason. Resolves only when every case has its
 * verdict: an engine answer short of a case rejects. `count` is the number of cases in the file.
 */
export async function runConformance(
  client: EngineClient,
  source: CaseSource,
  count: number,
  strategy: Strategy,
  onRow: (row: CaseRow, index: number) => void,
): Promise<ConformanceRun> {
  const rows: CaseRow[] = new Array(count);
  // Judged by the bound of what runs: the client replaces a strategy its backend cannot run (fused
  // off webgpu) with chunked, and says so, instead of failing every case. It is asked for the
  // strategy chosen, so that it can say so.
  const runs = strategyOn(strategy, (await client.ready()).backend).strategy;
  const algorithm = STRATEGY_ALGORITHM[runs];
  const { scans, conventions, refused } = await source.prepare(algorithm);
  const accept = (index: number, row: CaseRow) => {
    rows[index] = row;
    onRow(row, index);
  };
  for (const { index, verdict } of refused) accept(index, { verdict });
  const judged: Promise<void>[] = [];
  const judge = (index: number, result: ProblemResult | ConventionProblemResult, answer: EngineAnswer) => {
    const ran = result.ok ? { backend: result.run.backend, millis: result.run.millis } : {};
    const verdict = source.judge(index, answer, algorithm).then((v) => accept(index, { verdict: v, ...ran }));
    // A run the engine ends early (superseded, cancelled) never awaits its verdicts: their failure is not news.
    verdict.catch(() => {});
    judged.push(verdict);
  };
  let backend: string | undefined;
  if (scans.length > 0 || conventions.length === 0) {
    const outcome = await client.runProblems(
      scans.map((r) => r.problem),
      strategy,
      (result) => {
        const answer: EngineAnswer = result.ok ? { ok: true, outputs: result.run.outputs } : result;
        judge(scans[result.index].index, result, answer);
      },
      // Verdicts judge the outputs only: the chunk intermediates would double what crosses back.
      { trace: false },
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
        const order = { algorithm, chunkSize: chunkSizes[result.index] };
        const answer: EngineAnswer = result.ok
          ? { ok: true, outputs: { kind: "convention", ...result.run.result, order } }
          : result;
        judge(conventions[result.index].index, result, answer);
      },
    );
    backend = outcome.backend;
  }
  await Promise.all(judged);
  const sent = scans.length + conventions.length;
  const missing = sent - judged.length;
  if (missing > 0) throw new Error(`the engine answered ${sent - missing} of ${sent} cases`);
  return { rows, backend: backend ?? "" };
}
