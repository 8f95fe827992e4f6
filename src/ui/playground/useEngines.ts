import { useEffect, useState } from "react";
import type { BackendReport, BackendRequest } from "../../engine/backendNames";
import { EngineClient } from "../../engine/client";
import { CoreScanClient } from "./compute/coreScanClient";

export interface Engines {
  engine: EngineClient | null;
  core: CoreScanClient | null;
  /** The backend that came up (null while a worker starts). */
  report: BackendReport | null;
  /** A fallback to a lower backend, or a restart after the worker died. */
  notice: string | null;
}

/**
 * The view's workers: the tfjs engine (asked for `backend`; a change replaces its worker) and the
 * playground's core worker, for the view's lifetime.
 */
export function useEngines(initialBackend: BackendRequest, backend: BackendRequest): Engines {
  const [engine, setEngine] = useState<EngineClient | null>(null);
  const [core, setCore] = useState<CoreScanClient | null>(null);
  const [report, setReport] = useState<BackendReport | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    const client = new EngineClient({ backend: initialBackend });
    const unsubscribe = client.subscribe((event) => {
      if (event.type === "ready") setReport(event.report);
      else setNotice(event.message);
    });
    const scans = new CoreScanClient();
    setEngine(client);
    setCore(scans);
    return () => {
      unsubscribe();
      client.dispose();
      scans.dispose();
    };
  }, [initialBackend]);

  useEffect(() => {
    if (!engine) return;
    if (engine.requested === backend && engine.report) return;
    engine.selectBackend(backend);
    setReport(null);
    setNotice(null);
    engine.ready().catch(() => {}); // a failure to start arrives as a notice
  }, [engine, backend]);

  return { engine, core, report, notice };
}
