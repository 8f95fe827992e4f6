import * as Comlink from "comlink";
import { startTransition, useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { Implementation, ScanProblem } from "../../core";
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
  type RunPhase,
  runLiveRow,
  runPlayground,
} from "./compute/playgroundRun";
import { cloneProblem } from "./compute/rowProblem";

/** A spinner only once a run has taken this long; quicker runs just dim the last result. */
export const SPINNER_DELAY_MS = 300;
/** While a stroke lasts, the edited row is recomputed at most this often (its line is drawn in the editor). */
export const ROW_INTERVAL_MS = 16;
/** A run whose engine request was taken by another request is run again after this long. */
const RETRY_MS = 50;

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
  /** The step the run in flight is at, and when it started (performance.now()); null when idle. */
  phase: RunPhase | null;
  startedAt: number | null;
  /** The newest run was cancelled: the result on screen (if any) is of earlier inputs or settings. */
  cancelled: boolean;
  /** The result on screen is not of the committed inputs and settings (the newest run failed or was cancelled). */
  behind: boolean;
  /**
   * The run of the committed inputs and settings has ended (a result, a failure or a cancel). False
   * from the commit of an edit on, before `computing` turns true in the effect that starts its run.
   */
  settled: boolean;
  /** Stops the run in flight (the engine's worker is replaced); the last result stays. */
  cancel(): void;
  /** Runs the committed state again after a cancel. */
  rerun(): void;
}

/** What a whole-batch run was of: its settings (settingsKey) and its data. */
interface RunInputs {
  settings: string;
  data: PlaygroundState["data"];
}

// slime-exact multiplies with torch's own CPU float32 powers (core/torchPow), not fl32(γ)^k: say so.
const CORE_LABEL = {
  "slime-exact": "core float32 (slime's order, torch CPU float32 powers)",
  float64: "core float64",
} as const;

/**
 * A copy of the problem whose every array is a typed array of its own, marked for transfer: a
 * worker then gets it moved, not structured-cloned (the loss masks' plain arrays of 64 × 32768
 * numbers took about 2 s of the main thread to clone).
 */
function forTransfer(problem: ScanProblem): ScanProblem {
  let copy: ScanProblem;
  let arrays: ArrayBufferView[];
  if (problem.kind === "reinforce_pp") {
    // One pass per array, straight into a typed array of its own (cloneProblem's masks stay plain arrays).
    const { rewards, kl, lossMasks } = problem.batch;
    const batch = { rewards: Array.from(rewards), kl: kl.map((row) => row.slice()), lossMasks: lossMasks.map(float64) };
    copy = { ...problem, batch };
    arrays = [...batch.kl, ...batch.lossMasks];
  } else {
    const clone = cloneProblem(problem) as Exclude<ScanProblem, { kind: "reinforce_pp" }>;
    copy = clone;
    arrays = clone.kind === "gae" ? [clone.rewards.data, clone.values.data] : [clone.rewards.data];
  }
  const buffers = new Set<ArrayBuffer>();
  for (const a of arrays) if (a.buffer instanceof ArrayBuffer) buffers.add(a.buffer);
  return Comlink.transfer(copy, [...buffers]);
}

function float64(row: ArrayLike<number>): Float64Array {
  return row instanceof Float64Array ? row.slice() : Float64Array.from(row);
}

/** The chunked side: the engine worker for float32-engine, the playground's core worker otherwise. */
function chunkedSolver(engine: EngineClient, core: CoreScanClient, queue: LatestOnly<ChunkedAnswer>): ChunkedSolver {
  return (problem, precision, strategy) =>
    queue.run(async () => {
      if (precision === "float32-engine") {
        // The engine takes the arrays (transfer): send a copy, the serial loop still needs them.
        const run = await engine.runOutputs(forTransfer(problem), strategy);
        return { outputs: run.outputs, backend: run.backend, strategy: run.strategy, millis: run.millis };
      }
      const run = await core.chunked(forTransfer(problem));
      return { outputs: run.outputs, backend: CORE_LABEL[precision], strategy: "chunked", millis: run.millis };
    });
}

/** The settings and data that change what is computed (not the selected row or the heatmap metric). */
export function settingsKey(state: PlaygroundState): string {
  const { estimator, gamma, lambd, chunkSize, klCoef, precision, strategy } = state;
  return JSON.stringify([estimator, gamma, lambd, chunkSize, klCoef, precision, strategy]);
}

/** Whether a result was computed from these inputs and settings (a failed or cancelled run leaves an older one). */
export function resultIsOf(result: PlaygroundResult, state: PlaygroundState): boolean {
  return result.input.data === state.data && settingsKey(result.input) === settingsKey(state);
}

/** Why the results on screen are not of the editor's inputs (null when they are, or while a run computes). */
export function behindNote(status: Pick<ComputeStatus, "behind" | "cancelled">): string | null {
  if (!status.behind) return null;
  const why = status.cancelled ? "the newest run was cancelled" : "the newest run failed";
  return `Previous batch: ${why}, so these charts and the heatmap are of the batch and settings before it.`;
}

/** The batch a run was asked for, as an error names it: the file's rows or the preset's shape. */
export function describeBatch(state: PlaygroundState, rows: PlaygroundRow[]): string {
  const longest = rows.reduce((max, row) => Math.max(max, row.length), 0);
  const shape = `${rows.length} × ${longest} tokens`;
  const data = state.data;
  return data.source === "preset"
    ? `the ${data.preset} preset (${shape}, seed ${data.seed})`
    : `the batch of ${rows.length} row${rows.length === 1 ? "" : "s"} (${shape})`;
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
  const [phase, setPhase] = useState<RunPhase | null>(null);
  const [startedAt, setStartedAt] = useState<number | null>(null);
  const [cancelled, setCancelled] = useState(false);
  const [attempt, setAttempt] = useState(0);
  // The inputs and settings of a cancelled run: not started again on their own (a restarted worker
  // brings a new report), only by rerun() or by a change.
  const cancelledRun = useRef<RunInputs | null>(null);
  // The inputs and settings of the last run that ended: the page is settled while they are the committed ones.
  const [ended, setEnded] = useState<RunInputs | null>(null);
  const requestId = useRef(0);
  const queue = useMemo(() => new LatestOnly<ChunkedAnswer>(), []);
  const solver = useMemo(() => (engine && core ? chunkedSolver(engine, core, queue) : null), [engine, core, queue]);
  const bounds = useMemo(
    () =>
      core
        ? (problem: ScanProblem, implementation: Implementation) => core.bounds(forTransfer(problem), implementation)
        : undefined,
    [core],
  );
  const settings = settingsKey(committed);
  const data = committed.data;

  // Runs once the engine is up, and again for each new worker (a backend switch, a restart after a
  // crash: each brings a new report), so the result always names the backend that really ran.
  // biome-ignore lint/correctness/useExhaustiveDependencies: settings and data stand for the committed state.
  useEffect(() => {
    if (!solver || !report) return;
    const held = cancelledRun.current;
    if (held && held.settings === settings && held.data === data) return;
    cancelledRun.current = null;
    const id = ++requestId.current;
    setCancelled(false);
    setComputing(true);
    setPhase(null);
    setStartedAt(performance.now());
    const timer = setTimeout(() => {
      if (requestId.current === id) setSlow(true);
    }, SPINNER_DELAY_MS);
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    const control = {
      solveChunked: solver,
      solveBounds: bounds,
      isStale: () => requestId.current !== id,
      onPhase: (next: RunPhase) => {
        if (requestId.current === id) setPhase(next);
      },
    };
    const batch = describeBatch(committed, committedRows);
    runPlayground(committed, committedRows, control)
      .then((next) => {
        if (requestId.current !== id) return;
        // One transition for the result and the end of "computing": React may spread drawing the
        // charts and the heatmap over several frames, and aria-busy only clears with the new figures.
        startTransition(() => {
          setResult(next);
          setEnded({ settings, data });
          setLiveRow(null);
          setError(null);
          setRuns((n) => n + 1);
          setComputing(false);
          setSlow(false);
          setPhase(null);
          setStartedAt(null);
        });
      })
      .catch((reason: unknown) => {
        if (requestId.current !== id) return;
        if (reason instanceof SupersededError) {
          // Still the newest run, yet another request took the engine (the conventions' float32
          // run of the inputs before): run again, or the page would wait for ever.
          retryTimer = setTimeout(() => setAttempt((n) => n + 1), RETRY_MS);
          return;
        }
        setError(`The run on ${batch} failed: ${messageOf(reason)}`);
        setEnded({ settings, data });
        setComputing(false);
        setSlow(false);
        setPhase(null);
        setStartedAt(null);
      })
      .finally(() => clearTimeout(timer));
    return () => {
      clearTimeout(timer);
      clearTimeout(retryTimer);
    };
  }, [solver, bounds, settings, data, report, attempt]);

  const cancel = useCallback(() => {
    if (!computing) return;
    requestId.current++;
    cancelledRun.current = { settings, data };
    setEnded({ settings, data });
    // Only the engine's worker is stopped (and replaced): the core worker's scans and bounds are
    // short beside it and the next run's wait behind them; the main thread's step ends at its next yield.
    if (committed.precision === "float32-engine") engine?.cancel();
    setCancelled(true);
    setComputing(false);
    setSlow(false);
    setPhase(null);
    setStartedAt(null);
  }, [computing, settings, data, committed.precision, engine]);

  const rerun = useCallback(() => {
    cancelledRun.current = null;
    setAttempt((n) => n + 1);
  }, []);

  // While drawing: the edited row alone, the latest draft only (drafts come at most once per frame),
  // one row at a time, at most every ROW_INTERVAL_MS, and the engine left idle between rows at least
  // as long as the last row kept it busy. On a GPU emulated in software (SwiftShader, where no GPU
  // is found) the engine's threads take every core while they run: back to back, the rows of a
  // stroke stretched the page's own 30 ms tasks to 150 ms.
  const rowId = useRef(0);
  const lastRowStart = useRef(0);
  const lastRowEnd = useRef(0);
  const lastRowCost = useRef(0);
  const [rowInFlight, setRowInFlight] = useState(false);
  const rowDraft = useRef<typeof draft>(null);
  useEffect(() => {
    if (!solver || !draft || rowInFlight || rowDraft.current === draft) return;
    const id = ++rowId.current;
    const start = () => {
      rowDraft.current = draft;
      lastRowStart.current = performance.now();
      setRowInFlight(true);
      const row = Math.min(draft.state.selectedRow, draft.rows.length - 1);
      runLiveRow(draft.state, draft.rows, row, solver)
        .then((next) => {
          if (rowId.current === id) setLiveRow(next);
        })
        .catch(() => {
          // A row that cannot be computed mid-stroke (e.g. fully masked) shows its error on pointer-up.
        })
        .finally(() => {
          lastRowEnd.current = performance.now();
          lastRowCost.current = lastRowEnd.current - lastRowStart.current;
          setRowInFlight(false);
        });
    };
    const now = performance.now();
    const wait = Math.max(
      ROW_INTERVAL_MS - (now - lastRowStart.current),
      lastRowCost.current - (now - lastRowEnd.current),
    );
    if (wait <= 0) {
      start();
      return;
    }
    const timer = setTimeout(start, wait);
    return () => clearTimeout(timer);
  }, [solver, draft, rowInFlight]);

  const behind = result !== null && !computing && !resultIsOf(result, committed);
  const settled = !computing && ended?.settings === settings && ended.data === data;
  return useMemo(
    () => ({
      result,
      liveRow,
      computing,
      slow,
      error,
      runs,
      phase,
      startedAt,
      cancelled,
      behind,
      settled,
      cancel,
      rerun,
    }),
    [result, liveRow, computing, slow, error, runs, phase, startedAt, cancelled, behind, settled, cancel, rerun],
  );
}

function messageOf(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason);
}
