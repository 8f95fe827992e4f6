import { startTransition, useEffect, useMemo, useRef, useState } from "react";
import type { BackendReport } from "../../engine/backendNames";
import { type EngineClient, SupersededError } from "../../engine/client";
import type { PlaygroundRow, PlaygroundState } from "../../io/playgroundState";
import { LatestOnly } from "../workerClient/latestOnly";
import type { CoreScanClient } from "./compute/coreScanClient";
import {
  type ChunkedAnswer,
  type ChunkedSolver,
  type LiveRow,
  type PlaygroundResult,
  runLiveRow,
  runPlayground,
} from "./compute/playgroundRun";
import { cloneProblem } from "./compute/rowProblem";

/** A spinner only once a run has taken this long; quicker runs just dim the last result. */
export const SPINNER_DELAY_MS = 300;
/** While a stroke lasts, the edited row is recomputed at most this often (its line is drawn in the editor). */
export const ROW_INTERVAL_MS = 16;

export interface ComputeStatus {
  /** The last finished whole-batch run (kept, dimmed, while a newer one computes). */
  result: PlaygroundResult | null;
  /** The edited row's chunked output while a stroke lasts (null otherwise). */
  liveRow: LiveRow | null;
  /** A whole-batch run is in flight. */
  computing: boolean;
  /** It has been in flight for more than SPINNER_DELAY_MS. */
  slow: boolean;
  /** Why the newest run failed (bad input, a worker that died); the last result stays. */
  error: string | null;
  /** How many whole-batch results have arrived: scripts wait for it to change after an edit. */
  runs: number;
}

const CORE_LABEL = { "slime-exact": "core float32 (slime's order)", float64: "core float64" } as const;

/** The chunked side: the engine worker for float32-engine, the playground's core worker otherwise. */
function chunkedSolver(engine: EngineClient, core: CoreScanClient, queue: LatestOnly<ChunkedAnswer>): ChunkedSolver {
  return (problem, precision, strategy) =>
    queue.run(async () => {
      if (precision === "float32-engine") {
        // The engine takes the arrays (transfer): send a copy, the serial loop still needs them.
        const run = await engine.run(cloneProblem(problem), strategy);
        return { outputs: run.outputs, backend: run.backend, millis: run.millis };
      }
      const run = await core.chunked(problem);
      return { outputs: run.outputs, backend: CORE_LABEL[precision], millis: run.millis };
    });
}

/** The settings and data that change what is computed (not the selected row or the heatmap metric). */
function settingsKey(state: PlaygroundState): string {
  const { estimator, gamma, lambd, chunkSize, klCoef, precision, strategy } = state;
  return JSON.stringify([estimator, gamma, lambd, chunkSize, klCoef, precision, strategy]);
}

/**
 * Runs the committed state over the whole batch on every change, and the edited row alone while a
 * stroke lasts (at most once per frame: a newer request replaces a waiting one). Stale answers are
 * dropped; a failure leaves the last result on screen.
 */
export function usePlaygroundCompute(
  engine: EngineClient | null,
  core: CoreScanClient | null,
  committed: PlaygroundState,
  committedRows: PlaygroundRow[],
  draft: { state: PlaygroundState; rows: PlaygroundRow[] } | null,
  report: BackendReport | null,
): ComputeStatus {
  const [result, setResult] = useState<PlaygroundResult | null>(null);
  const [liveRow, setLiveRow] = useState<LiveRow | null>(null);
  const [computing, setComputing] = useState(false);
  const [slow, setSlow] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [runs, setRuns] = useState(0);
  const requestId = useRef(0);
  const queue = useMemo(() => new LatestOnly<ChunkedAnswer>(), []);
  const solver = useMemo(() => (engine && core ? chunkedSolver(engine, core, queue) : null), [engine, core, queue]);
  const bounds = useMemo(() => (core ? core.bounds.bind(core) : undefined), [core]);
  const settings = settingsKey(committed);
  const data = committed.data;

  // Runs once the engine is up, and again for each new worker (a backend switch, a restart after a
  // crash: each brings a new report), so the result always names the backend that really ran.
  // biome-ignore lint/correctness/useExhaustiveDependencies: settings and data stand for the committed state.
  useEffect(() => {
    if (!solver || !report) return;
    const id = ++requestId.current;
    setComputing(true);
    const timer = setTimeout(() => {
      if (requestId.current === id) setSlow(true);
    }, SPINNER_DELAY_MS);
    const control = { solveChunked: solver, solveBounds: bounds, isStale: () => requestId.current !== id };
    runPlayground(committed, committedRows, control)
      .then((next) => {
        if (requestId.current !== id) return;
        // One transition for the result and the end of "computing": React may spread drawing the
        // charts and the heatmap over several frames, and aria-busy only clears with the new figures.
        startTransition(() => {
          setResult(next);
          setLiveRow(null);
          setError(null);
          setRuns((n) => n + 1);
          setComputing(false);
          setSlow(false);
        });
      })
      .catch((reason: unknown) => {
        if (requestId.current !== id || reason instanceof SupersededError) return;
        setError(messageOf(reason));
        setComputing(false);
        setSlow(false);
      })
      .finally(() => clearTimeout(timer));
    return () => clearTimeout(timer);
  }, [solver, bounds, settings, data, report]);

  // While drawing: the edited row alone, the latest draft only (drafts come at most once per frame),
  // at most every ROW_INTERVAL_MS.
  const rowId = useRef(0);
  const lastRowStart = useRef(0);
  useEffect(() => {
    if (!solver || !draft) return;
    const id = ++rowId.current;
    const start = () => {
      lastRowStart.current = performance.now();
      const row = Math.min(draft.state.selectedRow, draft.rows.length - 1);
      runLiveRow(draft.state, draft.rows, row, solver)
        .then((next) => {
          if (rowId.current === id) setLiveRow(next);
        })
        .catch(() => {
          // A row that cannot be computed mid-stroke (e.g. fully masked) shows its error on pointer-up.
        });
    };
    const wait = ROW_INTERVAL_MS - (performance.now() - lastRowStart.current);
    if (wait <= 0) {
      start();
      return;
    }
    const timer = setTimeout(start, wait);
    return () => clearTimeout(timer);
  }, [solver, draft]);

  return { result, liveRow, computing, slow, error, runs };
}

function messageOf(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason);
}
