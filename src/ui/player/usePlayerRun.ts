import { useEffect, useState } from "react";
import { playerErrorText, sourceSizeProblem } from "../../compute/player/playerLimits";
import { buildReplay } from "../../compute/player/replay";
import { engineCopy, type PlayerSource, sourceProblem } from "../../compute/player/source";
import { buildTrace, type PlayerTrace } from "../../compute/player/trace";
import { solve } from "../../core";
import { EngineClient, SupersededError } from "../../engine/client";
import type { BackendRequest } from "../../names/backends";

export interface PlayerRun {
  /** The last good trace: it stays while a new source runs or after it fails. */
  trace?: PlayerTrace;
  label?: string;
  running: boolean;
  error?: string;
}

/**
 * Runs a source through the engine (slime's chunked strategy, float32) and its float64 serial
 * reference, and turns both into the player's trace. A newer source supersedes a run in flight.
 */
export function usePlayerRun(source: PlayerSource, backend: BackendRequest, engine?: EngineClient): PlayerRun {
  const [state, setState] = useState<PlayerRun>({ running: true });
  const [own, setOwn] = useState<EngineClient>();

  useEffect(() => {
    if (engine) return;
    const created = new EngineClient({ backend });
    setOwn(created);
    return () => {
      created.dispose();
      setOwn(undefined);
    };
  }, [engine, backend]);

  const client = engine ?? own;
  useEffect(() => {
    if (!client) return;
    let live = true;
    setState((s) => ({ ...s, running: true, error: undefined }));
    (async () => {
      try {
        const tooLarge = sourceSizeProblem(source);
        if (tooLarge) throw new Error(tooLarge);
        const { problem, label } = sourceProblem(source);
        const run = await client.run(engineCopy(problem), "chunked");
        const serial = solve(problem, "serial").outputs;
        const trace = buildTrace(buildReplay(problem, run, serial));
        if (live) setState({ trace, label, running: false });
      } catch (error) {
        if (!live || error instanceof SupersededError) return;
        setState((s) => ({ ...s, running: false, error: playerErrorText(source, error) }));
      }
    })();
    return () => {
      live = false;
    };
  }, [source, client]);

  return state;
}
