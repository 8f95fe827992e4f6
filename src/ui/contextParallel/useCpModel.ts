import { useEffect, useState } from "react";
import type { CpPanelParams, CpPanelResult } from "../../compute/contextParallel/cpPanelModel";
import type { CpWorkerApi } from "../../compute/contextParallel/cpWorker";
import { LatestOnly } from "../../compute/workerClient/latestOnly";
import { LazyWorker } from "../../compute/workerClient/lazyWorker";
import { SupersededError } from "../../engine/client";
import type { PlaygroundRow } from "../../io/playgroundState";

/** The worker computing the panel's model: one at a time, only the newest waiting request kept. */
class CpClient {
  private readonly worker = new LazyWorker<CpWorkerApi>(
    () => new Worker(new URL("../../compute/contextParallel/cpWorker.ts", import.meta.url), { type: "module" }),
  );
  private readonly runner = new LatestOnly<CpPanelResult>();

  model(row: PlaygroundRow, params: CpPanelParams): Promise<CpPanelResult> {
    return this.runner.run(() => this.worker.remote().model(row, params));
  }

  dispose(): void {
    this.worker.dispose();
  }
}

export interface CpModelState {
  /** The model of the newest inputs answered so far (kept, dimmed, while a newer one computes). */
  result: CpPanelResult | null;
  computing: boolean;
}

/** The panel's model for the row and parameters, computed in a worker; answers to older inputs are dropped. */
export function useCpModel(row: PlaygroundRow | undefined, params: CpPanelParams): CpModelState {
  const [client] = useState(() => new CpClient());
  useEffect(() => () => client.dispose(), [client]);
  const [state, setState] = useState<CpModelState>({ result: null, computing: false });
  const { estimator, gamma, lambd, klCoef, chunkSize, cpSize, promptLength, rowIndex } = params;
  useEffect(() => {
    if (!row) return;
    let current = true;
    setState((s) => ({ ...s, computing: true }));
    client
      .model(row, { estimator, gamma, lambd, klCoef, chunkSize, cpSize, promptLength, rowIndex })
      .then((result) => {
        if (current) setState({ result, computing: false });
      })
      .catch((error: unknown) => {
        // A newer request replaced this one: its own answer will come.
        if (!current || error instanceof SupersededError) return;
        const what = error instanceof Error ? error.message : String(error);
        setState({ result: { ok: false, message: `The panel could not be computed: ${what}` }, computing: false });
      });
    return () => {
      current = false;
    };
  }, [client, row, estimator, gamma, lambd, klCoef, chunkSize, cpSize, promptLength, rowIndex]);
  return state;
}
