import { startTransition, useEffect, useMemo, useRef, useState } from "react";
import type { ConventionClient } from "../../../compute/conventions/conventionClient";
import {
  type ConventionStatus,
  type ConventionView,
  conventionKey,
  type Float32Solver,
  requestFor,
} from "../../../compute/conventions/conventionView";
import type { PlaygroundRow, PlaygroundState } from "../../../io/playgroundState";

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
