import { useEffect, useMemo, useState } from "react";
import type { EngineClient } from "../../../engine/client";
import type { PlaygroundRow, PlaygroundState } from "../../../io/playgroundState";
import { ConventionClient } from "./conventionClient";
import { type ConventionStatus, type Float32Solver, useConventionCompute } from "./useConventionCompute";

/**
 * The library conventions of the committed state, with the view's own convention worker: float64
 * references of every library compared, and the float32 run of the one shown in core's float32.
 */
export function useConventions(
  _engine: EngineClient | null,
  committed: PlaygroundState,
  rows: PlaygroundRow[],
): ConventionStatus {
  const [client, setClient] = useState<ConventionClient | null>(null);
  useEffect(() => {
    const next = new ConventionClient();
    setClient(next);
    return () => next.dispose();
  }, []);
  const solveFloat32 = useMemo<Float32Solver | null>(
    () =>
      client
        ? async (request) => {
            const answer = await client.float32(request);
            return { run: answer.run, backend: "core float32", millis: answer.millis };
          }
        : null,
    [client],
  );
  return useConventionCompute(client, solveFloat32, committed, rows);
}
