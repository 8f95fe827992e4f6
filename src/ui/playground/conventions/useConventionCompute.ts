import { startTransition, useEffect, useMemo, useRef, useState } from "react";
import type { ConventionClient } from "../../../compute/conventions/conventionClient";
import type { Difference } from "../../../compute/conventions/conventionDifferences";
import type {
  ConventionReference,
  ConventionRequest,
  ConventionTables,
  LibraryRun,
} from "../../../compute/conventions/conventionRun";
import type { SentDifference } from "../../../compute/conventions/differencePictures";
import type { Float32Check } from "../../../compute/conventions/float32Check";
import type { Library } from "../../../core";
import { conventionLibraries, conventionOf, conventionParams, stateToConvention } from "../../../io/conventionProblem";
import type { PlaygroundRow, PlaygroundState } from "../../../io/playgroundState";

/** The float32 run of the library shown: where it ran, and its tables (or why the library refused the input). */
export interface Float32Run<R = LibraryRun<Float32Array>> {
  /** Padded tables; from the engine, its ragged result until the worker pads it (summarize). */
  run: R;
  /** "core float32", or the engine's backend. */
  backend: string;
  millis: number;
}

/** Runs the library shown in float32: in core's float32 (the convention worker) or on the engine. */
export interface Float32Solver {
  solve(request: ConventionRequest): Promise<Float32Run<Parameters<ConventionClient["summarize"]>[1]>>;
  /** The scans it computes with, for the error bound (absent: each library's own loops). */
  order?: ConventionRequest["order"];
  /** It runs on the engine worker (as the conventions' caller, after the page's own requests). */
  usesEngine: boolean;
}

/** What the conventions panel draws: every library in float64, the shown one in float32, and its check. */
export interface ConventionView extends ConventionReference {
  estimator: ConventionRequest["estimator"];
  libraries: Library[];
  float32: Float32Run | null;
  check: Float32Check | null;
  /** The rules that differ, naming spans of `sentencesRow` first (computed in the worker). */
  sentences: Difference[];
  sentencesRow: number;
  /** The state these numbers belong to. */
  input: PlaygroundState;
  /** The run's id in the convention worker (for the sentences of another row and the heatmap's pictures). */
  id: number;
  /** The difference heatmap's picture for the last ask, pooled with the run (differencePictures.ts). */
  sentPicture?: SentDifference;
}

export interface ConventionStatus {
  view: ConventionView | null;
  computing: boolean;
  error: string | null;
  /** Finished runs, for scripts to wait on. */
  runs: number;
  /** Where the difference heatmap's pictures are pooled: the convention worker, which keeps the run's tables. */
  pictures: Pick<ConventionClient, "picture"> | null;
}

/**
 * The float64 inputs of a state, built once per rows array, estimator and client (a γ change reuses
 * them): the client moves the batch to its worker, so another client needs a batch of its own.
 */
const inputsCache = new WeakMap<
  PlaygroundRow[],
  { estimator: string; client: ConventionClient; request: ConventionRequest }
>();

function requestFor(state: PlaygroundState, rows: PlaygroundRow[], client: ConventionClient): ConventionRequest | null {
  const cached = inputsCache.get(rows);
  let base = cached?.estimator === state.estimator && cached.client === client ? cached.request : null;
  if (!base) {
    const inputs = stateToConvention(state, "float64", rows);
    if (!inputs) return null;
    // Masks as bytes: a worker receives typed arrays in one copy, plain arrays number by number.
    const batch = { ...inputs.batch, lossMasks: inputs.batch.lossMasks.map((mask) => Uint8Array.from(mask)) };
    // The panel runs NaN and ±Inf as the playground does, to show where each library carries them.
    base = { ...inputs, libraries: [], batch: batch as ConventionRequest["batch"], allowNonFinite: true };
    inputsCache.set(rows, { estimator: state.estimator, client, request: base });
  }
  return { ...base, libraries: conventionLibraries(conventionOf(state)), params: conventionParams(state) };
}

/** The settings and data that change what the conventions compute. */
function conventionKey(state: PlaygroundState): string {
  const { estimator, gamma, lambd, klCoef, precision, strategy } = state;
  return JSON.stringify([estimator, gamma, lambd, klCoef, precision, strategy, conventionOf(state)]);
}

/**
 * Runs the library conventions of the committed state (REINFORCE++ and GAE) on every change: the
 * float64 references in the convention worker, the float32 run of the library shown beside them,
 * then its check against each element's bound. Stale answers are dropped; a failure keeps the last view.
 * On the engine the float32 run waits behind the page's own requests (the engine client's queue).
 */
export function useConventionCompute(
  client: ConventionClient | null,
  solveFloat32: Float32Solver | null,
  committed: PlaygroundState,
  rows: PlaygroundRow[],
  hold: boolean,
  selectedRow: number,
): ConventionStatus {
  const [view, setView] = useState<ConventionView | null>(null);
  const [computing, setComputing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [runs, setRuns] = useState(0);
  const requestId = useRef(0);
  const key = conventionKey(committed);
  const active = committed.estimator !== "discounted";
  // The selected row when a run starts (a later change asks the worker for new sentences).
  const rowRef = useRef(selectedRow);
  rowRef.current = selectedRow;

  // biome-ignore lint/correctness/useExhaustiveDependencies: key and rows stand for the committed state.
  useEffect(() => {
    if (!client || !solveFloat32 || !active) return;
    const id = ++requestId.current;
    setComputing(true);
    // The page's own result first (its workers and drawing would share the cores with these).
    if (hold) return;
    const base = requestFor(committed, rows, client);
    if (!base) return;
    const request = { ...base, ...(solveFloat32.order ? { order: solveFloat32.order } : {}) };
    // The float32 run first: the engine's inputs are built in the convention worker, ahead of the reference.
    const float32Run = solveFloat32.solve(request);
    Promise.all([client.reference(id, request), float32Run])
      .then(async ([reference, float32]) => {
        const { summary, float32: run } = await client.summarize(id, float32.run, rowRef.current);
        if (requestId.current !== id || !summary) return;
        startTransition(() => {
          setView({
            ...reference,
            ...summary,
            estimator: request.estimator,
            libraries: request.libraries,
            float32: { ...float32, run },
            input: committed,
            id,
          });
          setError(null);
          setRuns((n) => n + 1);
          setComputing(false);
        });
      })
      .catch((reason: unknown) => {
        // A newer request of the panel replaced this one.
        if (requestId.current !== id) return;
        setError(`Library conventions: ${reason instanceof Error ? reason.message : String(reason)}`);
        setComputing(false);
      });
  }, [client, solveFloat32, key, rows, active, hold]);

  // A newly selected row: the same run's sentences, pointing at it.
  const viewId = view?.id;
  const sentencesRow = view?.sentencesRow;
  useEffect(() => {
    if (!client || viewId === undefined || sentencesRow === selectedRow) return;
    client
      .sentences(viewId, selectedRow)
      .then((sentences) => {
        if (!sentences) return;
        setView((old) => (old && old.id === viewId ? { ...old, sentences, sentencesRow: selectedRow } : old));
      })
      .catch(() => {
        // The sentences of the previous row stay.
      });
  }, [client, viewId, sentencesRow, selectedRow]);

  return useMemo(
    () => ({
      view: active ? view : null,
      computing: active && computing,
      error: active ? error : null,
      runs,
      pictures: client,
    }),
    [view, computing, error, runs, active, client],
  );
}

/** The tables of one output of a run, or null when the library refused the input. */
export function tablesOf(run: LibraryRun | undefined): ConventionTables | null {
  return run?.ok ? run.tables : null;
}
