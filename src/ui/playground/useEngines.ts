import { useEffect, useState } from "react";
import { PlaygroundClient } from "../../compute/playground/playgroundClient";
import { EngineClient, type EngineEvent } from "../../engine/client";
import type { BackendReport, BackendRequest } from "../../names/backends";
import { noticeText } from "../strategyWords";

export interface Engines {
  engine: EngineClient | null;
  /** The playground worker: it computes every result (compute/playgroundWorker.ts). */
  worker: PlaygroundClient | null;
  /** The backend that came up (null while a worker starts). */
  report: BackendReport | null;
  /** A fallback to a lower backend, or a restart after the worker died. */
  notice: string | null;
}

/** An engine started before the view mounted, with what it has said so far. */
interface EarlyEngine {
  backend: BackendRequest;
  client: EngineClient;
  events: EngineEvent[];
  stopListening(): void;
}

let early: EarlyEngine | null = null;

/**
 * Starts the engine's worker now, before the view's first render: fetching and compiling tfjs
 * and bringing up a backend take longer than that render, and the first result waits for them.
 * The view's first mount takes it over if it asks for the same backend (else it is dropped).
 */
export function startEngineEarly(backend: BackendRequest): void {
  if (early || typeof Worker === "undefined") return;
  const client = new EngineClient({ backend });
  const events: EngineEvent[] = [];
  const stopListening = client.subscribe((event) => events.push(event));
  client.ready().catch(() => {}); // a failure to start arrives as a notice
  early = { backend, client, events, stopListening };
}

function takeEarly(backend: BackendRequest): EarlyEngine | null {
  const taken = early;
  early = null;
  if (taken && taken.backend !== backend) {
    taken.stopListening();
    taken.client.dispose();
    return null;
  }
  return taken;
}

/**
 * The view's workers: the tfjs engine (asked for `backend`; a change replaces its worker) and the
 * playground's worker, for the view's lifetime.
 */
export function useEngines(initialBackend: BackendRequest, backend: BackendRequest): Engines {
  const [engine, setEngine] = useState<EngineClient | null>(null);
  const [worker, setWorker] = useState<PlaygroundClient | null>(null);
  const [report, setReport] = useState<BackendReport | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    const started = takeEarly(initialBackend);
    const client = started?.client ?? new EngineClient({ backend: initialBackend });
    const onEvent = (event: EngineEvent) => {
      if (event.type === "ready") setReport(event.report);
      else setNotice(noticeText(event));
    };
    // What the early engine said before this view listened, in order.
    for (const event of started?.events ?? []) onEvent(event);
    started?.stopListening();
    const unsubscribe = client.subscribe(onEvent);
    const scans = new PlaygroundClient();
    setEngine(client);
    setWorker(scans);
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
    if (!engine.report) setReport(null);
    setNotice(null);
    engine.ready().catch(() => {}); // a failure to start arrives as a notice
  }, [engine, backend]);

  return { engine, worker, report, notice };
}
