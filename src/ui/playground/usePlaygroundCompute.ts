import { useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from "react";
import {
  type AtOnce,
  computeReducer,
  initialCompute,
  type ResultSource,
  type RunKey,
  sameInputs,
  viewOf,
} from "../../compute/playground/computeMachine";
import { forTransfer, type PlaygroundClient } from "../../compute/playground/playgroundClient";
import {
  type ChunkedAnswer,
  type ChunkedSolver,
  CORE_LABEL,
  finishRun,
  type LiveRow,
  type PlaygroundResult,
  previewable,
  type RunPhase,
  runLiveRow,
  startRun,
} from "../../compute/playground/playgroundRun";
import { describeBatch, messageOf, requestOf, settingsKey } from "../../compute/playground/runInputs";
import { LatestOnly } from "../../compute/workerClient/latestOnly";
import type { ScanProblem } from "../../core";
import { type Caller, CancelledError, type EngineClient } from "../../engine/client";
import type { PlaygroundRow, PlaygroundState } from "../../io/playgroundState";
import type { BackendReport } from "../../names/backends";
import type { Strategy } from "../../names/strategies";
import { markStep } from "../stepMarks";

/** A spinner only once a run has taken this long; quicker runs just dim the last result. */
export const SPINNER_DELAY_MS = 300;
/** While a stroke lasts, the edited row is recomputed at most this often (its line is drawn in the editor). */
export const ROW_INTERVAL_MS = 16;
/**
 * The page's two callers of the engine (the conventions panel is the third, below them): a stroke's
 * row, then the whole batch. Each replaces its own older request; the other callers' wait their turn.
 */
const ROW_CALLER: Caller = { name: "playground row", priority: 2 };
const SCAN_CALLER: Caller = { name: "playground scan", priority: 1 };

export interface ComputeStatus {
  /** The result on screen: core's (a teaching-size batch, shown until the final one) or the final one. */
  result: PlaygroundResult | null;
  /** Whether `result` is core's result shown until the final one comes, or the final one. */
  source: ResultSource | null;
  /** The edited row's chunked output while a stroke lasts (null otherwise). */
  liveRow: LiveRow | null;
  /** A run is in flight. */
  computing: boolean;
  /** The final result of the committed inputs is not on screen yet (`results` is aria-busy). */
  busy: boolean;
  /** It has been in flight for more than SPINNER_DELAY_MS. */
  slow: boolean;
  /** The run in flight is of a stroke's draft (shown by core as the pointer moves). */
  drafting: boolean;
  /** Why the newest run failed (bad input, a worker that died); the last result stays. */
  error: string | null;
  /** How many final whole-batch results have arrived: scripts wait for it to change after an edit. */
  runs: number;
  /** How many results, either source, every panel has drawn. */
  draws: number;
  /** The step the run in flight is at, and when it started (performance.now()); null when idle. */
  phase: RunPhase | null;
  startedAt: number | null;
  /** The newest run was cancelled: the result on screen (if any) is of earlier inputs or settings. */
  cancelled: boolean;
  /** The result on screen is not of the committed inputs and settings (the newest run failed or was cancelled). */
  behind: boolean;
  /** Stops the run in flight (the engine's worker is replaced); the last result stays. */
  cancel(): void;
  /** Runs the committed state again after a cancel. */
  rerun(): void;
  /** The results panel has drawn this result in every part. */
  drawn(result: PlaygroundResult): void;
}

/** A worker's answer, its request and its arrival marked on the page's timeline (stepMarks.ts). */
async function marked<T>(asked: Promise<T>): Promise<T> {
  markStep("engine-asked");
  const answer = await asked;
  markStep("engine-answered");
  return answer;
}

/** The engine's chunked side of a stroke's row (float32-engine). */
async function engineChunked(engine: EngineClient, problem: ScanProblem, strategy: Strategy): Promise<ChunkedAnswer> {
  // The row is made for this ask: the engine takes its arrays.
  const run = await marked(engine.runOutputs(forTransfer(problem), strategy, ROW_CALLER));
  return { outputs: run.outputs, backend: run.backend, strategy: run.strategy, millis: run.millis };
}

/**
 * The engine's chunked side of the batch (float32-engine), its outputs posted by the engine's worker
 * straight to the playground worker on `port`. The batch's arrays stay the same over γ, λ, β and
 * chunk-size edits: the engine's worker keeps them (keptInputs.ts).
 */
function engineToWorker(engine: EngineClient, problem: ScanProblem, strategy: Strategy) {
  const { port1, port2 } = new MessageChannel();
  return { asked: marked(engine.runOutputsKept(problem, strategy, SCAN_CALLER, port1)), port: port2 };
}

/** A stroke's row: the engine worker for float32-engine, the playground worker otherwise. */
function chunkedSolver(
  engine: EngineClient,
  worker: PlaygroundClient,
  queue: LatestOnly<ChunkedAnswer>,
): ChunkedSolver {
  return (problem, precision, strategy) =>
    queue.run(async () => {
      if (precision === "float32-engine") return engineChunked(engine, problem, strategy);
      const run = await marked(worker.chunked(problem));
      return { outputs: run.outputs, backend: CORE_LABEL[precision], strategy: "chunked", millis: run.millis };
    });
}

/**
 * Carries out what the compute machine (compute/computeMachine.ts) decides: each change of the
 * committed inputs and settings is a run, sent to the playground worker (compute/playgroundWorker.ts),
 * which computes the whole result; for float32-engine the engine's chunked outputs are forwarded to
 * it. A teaching-size batch is computed at once on this thread by the same functions, in the frame of
 * the edit (the final result itself for slime-exact and float64, shown until the engine answers for
 * float32-engine). While a stroke lasts the edited row alone is recomputed (at most once per frame:
 * a newer request replaces a waiting one). Answers of a run that is no longer the newest are dropped.
 */
export function usePlaygroundCompute(
  engine: EngineClient | null,
  worker: PlaygroundClient | null,
  committed: PlaygroundState,
  committedRows: PlaygroundRow[],
  draft: { state: PlaygroundState; rows: PlaygroundRow[] } | null,
  report: BackendReport | null,
): ComputeStatus {
  const [machine, dispatch] = useReducer(computeReducer<PlaygroundResult>, undefined, initialCompute<PlaygroundResult>);
  const [liveRow, setLiveRow] = useState<LiveRow | null>(null);
  const [slowRun, setSlowRun] = useState<number | null>(null);
  const queue = useMemo(() => new LatestOnly<ChunkedAnswer>(), []);
  const solver = useMemo(
    () => (engine && worker ? chunkedSolver(engine, worker, queue) : null),
    [engine, worker, queue],
  );
  const needsEngine = committed.precision === "float32-engine";
  // Core's precisions need no engine: their runs are not redone when a worker comes up.
  const engineKey = needsEngine ? report : null;
  // The run in flight, as the machine's last state says: a run's answers are dropped once it is not.
  const runId = useRef<number | null>(null);
  runId.current = machine.run?.id ?? null;

  // A stroke on a teaching-size batch is shown whole as the pointer moves (charts, heatmap, figures).
  const drafted = draft && previewable(draft.rows) ? draft : null;
  const shown = useRef(machine.shown);
  shown.current = machine.shown;
  const target = drafted ?? { state: committed, rows: committedRows };
  const targetRef = useRef(target);
  targetRef.current = target;
  const targetSettings = settingsKey(target.state);
  const targetData = target.state.data;
  const isDraft = drafted !== null;
  const small = useMemo(() => previewable(target.rows), [target.rows]);
  // What the page asks for now; the machine hears of it in the layout effect below.
  const key = useMemo<RunKey>(
    () => ({ settings: targetSettings, data: targetData, engine: engineKey, draft: isDraft }),
    [targetSettings, targetData, engineKey, isDraft],
  );
  // A layout effect: a teaching-size batch, computed here at once by the functions the worker runs,
  // is drawn before the browser paints the edit's frame (the final result itself for core's
  // precisions). Through the worker it came a frame later: 31–45 ms against 11–23 ms at 4 × 300
  // (bench:ui, docs/design.md). With nothing on screen yet (the page's first run) there is no frame
  // to keep: the passive effect below computes it after the page's first frame, so that mounting the
  // page, its first layout and its first result are three tasks, not one of 150–200 ms.
  const wanted = useRef<RunKey | null>(null);
  const want = () => {
    wanted.current = key;
    let atOnce: AtOnce<PlaygroundResult> | undefined;
    const source = needsEngine || isDraft ? "preview" : "final";
    const kept = shown.current && sameInputs(shown.current.key, key) ? shown.current : null;
    if (kept) {
      // A stroke's end on core's precisions: its last draft's result is the final one.
      if (small && source === "final" && kept.source === "preview") atOnce = { result: kept.result, source };
    } else if (small) {
      const { state, rows } = targetRef.current;
      try {
        const computed = finishRun(startRun(requestOf(0, state, rows)));
        atOnce = { result: { ...computed, input: state }, source };
        markStep("core-result-ready");
      } catch (reason) {
        // Mid-stroke a row that cannot be computed (fully masked) is said on release, by the final run.
        if (!isDraft) atOnce = { error: `The run on ${describeBatch(state, rows)} failed: ${messageOf(reason)}` };
      }
    }
    dispatch({ type: "want", key, now: performance.now(), atOnce });
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the target state and rows.
  useLayoutEffect(() => {
    if (shown.current) want();
  }, [key, small]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the target state and rows.
  useEffect(() => {
    if (wanted.current !== key) want();
  }, [key, small]);

  const run = machine.run;
  // The run in the playground worker: the final result, or core's of a stroke's draft (or of the
  // engine's precision while the engine is not up) unless the layout effect has shown it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a run's inputs are those of its key, which run.id stands for.
  useEffect(() => {
    if (!run || !worker) return;
    const id = run.id;
    const { state, rows } = targetRef.current;
    // The engine as the run's key has it: a worker that comes up later is a new run.
    const engineReady = engine !== null && run.key.engine !== null;
    const preview = run.key.draft || (needsEngine && !engineReady);
    const onScreen = shown.current && sameInputs(shown.current.key, run.key) ? shown.current : null;
    if (preview && onScreen) return; // shown at once
    const timer = setTimeout(() => setSlowRun(id), SPINNER_DELAY_MS);
    const current = () => runId.current === id;
    const batch = describeBatch(state, rows);
    const send = () => {
      let asked: Promise<void>;
      try {
        const { p32, ...request } = requestOf(id, state, rows);
        const fromEngine = needsEngine && !preview && engine ? engineToWorker(engine, p32, state.strategy) : undefined;
        fromEngine?.asked.then(
          () => current() && dispatch({ type: "phase", id, phase: "summary" }),
          () => {},
        );
        dispatch({ type: "phase", id, phase: fromEngine ? "engine" : "worker" });
        asked = worker.result(request, fromEngine).then((computed) => {
          if (!computed || !current()) return;
          markStep("result-ready");
          const result = { ...computed, input: state };
          if (preview) {
            dispatch({ type: "preview", id, result });
            return;
          }
          dispatch({ type: "final", id, result });
          setLiveRow(null);
        });
      } catch (reason) {
        asked = Promise.reject(reason);
      }
      asked
        .catch((reason: unknown) => {
          // A newer run replaced this one (in the engine's queue or the worker's), or it was cancelled.
          if (!current() || reason instanceof CancelledError) return;
          // Mid-stroke a row that cannot be computed (fully masked) is said on release, by the final run.
          if (!run.key.draft)
            dispatch({ type: "failed", id, message: `The run on ${batch} failed: ${messageOf(reason)}` });
        })
        .finally(() => clearTimeout(timer));
    };
    // Core's result of this run is on screen (a teaching-size edit): the worker and the engine are
    // asked in a task of their own, so copying and posting the problem (3-4 ms, bench/ui.profile.ts)
    // is not in the task that draws the edit's frame.
    const later = onScreen ? setTimeout(send, 0) : undefined;
    if (!onScreen) send();
    return () => {
      clearTimeout(timer);
      clearTimeout(later);
    };
  }, [run?.id, worker]);

  const cancel = useCallback(() => {
    if (runId.current === null) return;
    // Both workers are stopped (and replaced on the next run): nothing queues behind the abandoned run.
    if (needsEngine) engine?.cancel(SCAN_CALLER);
    worker?.cancel();
    dispatch({ type: "cancel" });
  }, [needsEngine, engine, worker]);
  const rerun = useCallback(() => dispatch({ type: "rerun", now: performance.now() }), []);
  const drawn = useCallback((result: PlaygroundResult) => {
    if (shown.current?.result === result && shown.current.source === "preview") markStep("core-result-drawn");
    dispatch({ type: "drawn", result });
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
    if (!solver || !draft || drafted || rowInFlight || rowDraft.current === draft) return;
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
  }, [solver, draft, drafted, rowInFlight]);

  const slow = run !== null && slowRun === run.id;
  return useMemo(() => {
    const view = viewOf(machine);
    return {
      ...view,
      liveRow,
      slow,
      drafting: machine.run?.key.draft ?? false,
      error: machine.error,
      runs: machine.runs,
      draws: machine.draws,
      phase: machine.run?.phase ?? null,
      startedAt: machine.run?.startedAt ?? null,
      cancelled: machine.cancelled,
      cancel,
      rerun,
      drawn,
    };
  }, [machine, liveRow, slow, cancel, rerun, drawn]);
}
