import { useEffect, useMemo, useState } from "react";
import { ConventionClient } from "../../../compute/conventions/conventionClient";
import type { ConventionStatus, Float32Solver } from "../../../compute/conventions/conventionView";
import type { Caller, EngineClient } from "../../../engine/client";
import type { PlaygroundRow, PlaygroundState } from "../../../io/playgroundState";
import { STRATEGY_ALGORITHM } from "../../../names/strategies";
import { useConventionCompute } from "./useConventionCompute";

/** The conventions panel's requests to the engine: after the page's own (usePlaygroundCompute). */
const CONVENTIONS_CALLER: Caller = { name: "conventions", priority: 0 };

/**
 * The library conventions of the committed state, with the view's own convention worker: float64
 * references of every library compared, and the float32 run of the one shown, on the engine (with
 * its backend and strategy) when the precision is the float32 engine, else in core's float32.
 * On the engine they are its lowest-priority caller: the page's scan and a stroke's rows go first.
 * `hold`: the page's own result is not drawn yet (or a stroke goes on); the run starts after.
 */
export function useConventions(
  engine: EngineClient | null,
  committed: PlaygroundState,
  rows: PlaygroundRow[],
  hold: boolean,
  selectedRow: number,
): ConventionStatus {
  const [client, setClient] = useState<ConventionClient | null>(null);
  useEffect(() => {
    const next = new ConventionClient();
    setClient(next);
    return () => next.dispose();
  }, []);
  const { precision, strategy, chunkSize } = committed;
  const onEngine = precision === "float32-engine" && engine !== null;
  const solver = useMemo<Float32Solver | null>(() => {
    if (!client) return null;
    if (!onEngine || !engine) {
      return {
        usesEngine: false,
        solve: async (request) => {
          const answer = await client.float32(request);
          return { run: answer.run, backend: "core float32", millis: answer.millis };
        },
      };
    }
    return {
      usesEngine: true,
      order: { algorithm: STRATEGY_ALGORITHM[strategy], chunkSize },
      solve: async (request) => {
        const library = request.libraries[0];
        // Built in the convention worker and moved here, then moved on to the engine: no copy on this thread.
        const { batch } = await client.engineInputs(request);
        const problem = {
          library,
          estimator: request.estimator,
          batch,
          params: request.params,
          chunkSize,
          allowNonFinite: request.allowNonFinite,
        };
        try {
          const run = await engine.runConvention(problem, strategy, CONVENTIONS_CALLER);
          return {
            // Padded in the convention worker (summarize).
            run: { library, ragged: run.result },
            backend: `${run.backend}, ${strategy}`,
            millis: run.millis,
          };
        } catch (thrown) {
          // Input the library rejects is a finding, not a failure of the page.
          const referenceText = (thrown as { referenceText?: unknown }).referenceText;
          if (typeof referenceText === "string")
            return { run: { library, ok: false, error: referenceText }, backend: "engine", millis: 0 };
          throw thrown;
        }
      },
    };
  }, [client, engine, onEngine, strategy, chunkSize]);
  return useConventionCompute(client, solver, committed, rows, hold, selectedRow);
}
