import { useEffect, useReducer, useRef, useState } from "react";
import type { CaseInfo } from "../../compute/conformance/caseBook";
import { CaseFile } from "../../compute/conformance/caseFileClient";
import { type CaseRow, runConformance } from "../../compute/conformance/runConformance";
import { INITIAL_RUN_STATE, isBusy, runReducer } from "../../compute/conformance/runState";
import { EngineClient, SupersededError } from "../../engine/client";
import type { AdapterInfo, BackendRequest } from "../../names/backends";
import type { Strategy } from "../../names/strategies";
import { noticeText } from "../strategyWords";
import { type UrlState, writeUrlState } from "../urlState";
import { CaseFileLoader } from "./CaseFileLoader";
import { ConformanceResults } from "./ConformanceResults";
import { EngineControls } from "./EngineControls";
import { FaultControls } from "./FaultControls";
import { Notices } from "./Notices";
import { RowBatcher } from "./rowBatcher";
import "./conformance.css";

export interface ConformanceViewProps {
  initial: UrlState;
  urlProblems: string[];
  /** Shows the fault-injection buttons (`?debug` in the address). */
  debug?: boolean;
}

interface Loaded {
  /** The file's worker: it holds the cases and judges the engine's answers. */
  file: CaseFile;
  cases: CaseInfo[];
  fileName: string;
}

/**
 * Checks a case file on the tensor engine in the worker: every case against its float32
 * tolerance, on the chosen backend and strategy. Choosing a file, or changing the backend or the
 * strategy, starts a run at once, in the same event: the newest run owns the results, and what
 * an older one sends later is dropped (runState.ts).
 */
export function ConformanceView({ initial, urlProblems, debug = false }: ConformanceViewProps) {
  const [client, setClient] = useState<EngineClient | null>(null);
  const [backendRequest, setBackendRequest] = useState<BackendRequest>(initial.backend);
  const [strategy, setStrategy] = useState(initial.strategy);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [run, dispatch] = useReducer(runReducer, INITIAL_RUN_STATE);
  const [backend, setBackend] = useState<string | null>(null);
  const [adapter, setAdapter] = useState<AdapterInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // Read by callbacks that outlive a render: the newest run and read, and the settings they use.
  const latest = useRef({
    run: 0,
    read: 0,
    strategy: initial.strategy,
    loaded: null as Loaded | null,
    client: null as EngineClient | null,
    /** The file being read, in a worker of its own until it replaces the loaded one. */
    reading: null as CaseFile | null,
  });
  const batcher = useRef<RowBatcher<readonly [number, CaseRow]> | null>(null);

  // One engine client (one worker) for the view's lifetime.
  useEffect(() => {
    const engine = new EngineClient({
      backend: initial.backend,
      watchdogBaseMs: debug ? debugWatchdogMs() : undefined,
    });
    const unsubscribe = engine.subscribe((event) => {
      // After a crash the client asks for the next backend down by itself: the menu follows it,
      // and shows no backend as running until the new worker reports.
      setBackendRequest(engine.requested);
      const report = event.type === "ready" ? event.report : engine.report;
      setBackend(report?.backend ?? null);
      setAdapter(report?.adapter ?? null);
      if (event.type !== "ready") setNotice(noticeText(event));
    });
    setClient(engine);
    latest.current.client = engine;
    engine.ready().catch(() => {}); // start at once; a failure to start arrives as a notice
    const files = latest.current;
    return () => {
      unsubscribe();
      engine.dispose();
      files.reading?.close();
      files.loaded?.file.close();
      batcher.current?.cancel();
    };
  }, [initial.backend, debug]);

  useEffect(() => {
    writeUrlState({ view: "conformance", backend: backendRequest, strategy });
  }, [backendRequest, strategy]);

  const startRun = (engine: EngineClient, { file, cases, fileName }: Loaded, readId?: number) => {
    const id = ++latest.current.run;
    const isCurrent = () => latest.current.run === id;
    batcher.current?.cancel();
    const rows = new RowBatcher<readonly [number, CaseRow]>((batch) => {
      dispatch({ type: "rows", runId: id, rows: batch, at: performance.now() });
      const ran = batch.findLast(([, row]) => row.backend !== undefined)?.[1].backend;
      if (ran && isCurrent()) setBackend(ran);
    });
    batcher.current = rows;
    dispatch({ type: "start", runId: id, cases, fileName, readId, at: performance.now() });
    setError(null);
    runConformance(engine, file, cases.length, latest.current.strategy, (row, index) => rows.add([index, row]))
      .then((result) => {
        rows.cancel();
        dispatch({ type: "finish", runId: id, rows: result.rows });
        if (isCurrent()) setBackend(result.backend);
      })
      .catch((reason: unknown) => {
        rows.flush();
        dispatch({ type: "stop", runId: id });
        if (!isCurrent() || reason instanceof SupersededError) return;
        setError(`The run stopped: ${reason instanceof Error ? reason.message : String(reason)}`);
      });
  };

  const rerun = (engine: EngineClient | null) => {
    const cases = latest.current.loaded;
    if (engine && cases) startRun(engine, cases);
  };

  const onFile = (fileName: string, read: () => Promise<Blob | Uint8Array>) => {
    const readId = ++latest.current.read;
    // A file still being parsed is dropped: its worker ends, so this one does not queue behind it.
    latest.current.reading?.close();
    const file = new CaseFile(fileName);
    latest.current.reading = file;
    const isLatest = () => latest.current.read === readId;
    dispatch({ type: "read", readId, fileName, at: performance.now() });
    void (async () => {
      let next: Loaded;
      try {
        const contents = await read();
        if (!isLatest()) return;
        const cases = await file.read(contents);
        if (!isLatest()) return;
        latest.current.reading = null;
        next = { file, cases, fileName };
      } catch (reason) {
        file.close();
        if (!isLatest()) return;
        latest.current.reading = null;
        // A bad file leaves the previous results in place.
        dispatch({ type: "read-failed", readId });
        setError(reason instanceof Error ? reason.message : String(reason));
        return;
      }
      if (!isLatest()) return;
      const previous = latest.current.loaded;
      latest.current.loaded = next;
      setLoaded(next);
      const engine = latest.current.client;
      if (engine) startRun(engine, next, readId);
      else {
        dispatch({ type: "read-failed", readId });
        setError("The engine is not started yet: choose the file again in a moment.");
      }
      // The previous file's worker goes (a run of it still going was just superseded); its finished
      // verdicts stay on screen for a cancel to bring back: they need no cases.
      previous?.file.close();
    })();
  };

  const onBackend = (request: BackendRequest) => {
    setBackendRequest(request);
    setNotice(null);
    setBackend(null);
    setAdapter(null);
    if (!client) return;
    client.selectBackend(request);
    client.ready().catch(() => {}); // show the backend (or its fallback notice) before any run
    rerun(client);
  };

  // A read in progress is dropped (the file's bytes are freed); a run rejects at once and its worker
  // is replaced (EngineClient.cancel): the previous run's results come back, saying so.
  const onCancel = () => {
    if (run.reading) {
      latest.current.read++;
      latest.current.reading?.close();
      latest.current.reading = null;
      dispatch({ type: "read-failed", readId: run.reading.readId });
      setNotice(`Reading ${run.reading.fileName} was cancelled; the results below are unchanged.`);
      return;
    }
    if (run.phase !== "running") return;
    batcher.current?.cancel();
    dispatch({ type: "cancel", runId: run.runId });
    client?.cancel();
  };

  const onStrategy = (next: Strategy) => {
    setStrategy(next);
    latest.current.strategy = next;
    rerun(client);
  };

  const busy = isBusy(run);
  return (
    <div className="conformance-view">
      <h2>Conformance</h2>
      <p className="view-intro">
        Runs every case of a golden file on the tensor engine (in a Web Worker) and compares every output with the
        float64 truth: each element is held to its tolerance, its own float32 error bound (the roundings on its path) or
        the file's tolerance where that is tighter. The words:{" "}
        <a href="?view=glossary" data-testid="glossary-link">
          the glossary
        </a>{" "}
        (and docs/verdicts.md for where each figure appears).
      </p>
      <Notices error={error} notice={notice} urlProblems={urlProblems} />
      <div className="conformance-controls">
        <CaseFileLoader onFile={onFile} />
        <EngineControls
          backend={backendRequest}
          running={backend}
          adapter={backend === "webgpu" ? adapter : null}
          strategy={strategy}
          onBackend={onBackend}
          onStrategy={onStrategy}
        />
        <button type="button" disabled={!loaded || !client || busy} onClick={() => rerun(client)}>
          Run again
        </button>
        {busy ? (
          <button
            type="button"
            onClick={onCancel}
            data-testid="cancel-conformance"
            title="Stop; the previous results stay"
          >
            Cancel
          </button>
        ) : null}
      </div>
      {debug ? <FaultControls client={client} onError={setError} /> : null}
      <ConformanceResults state={run} busy={busy} />
    </div>
  );
}

/** `?debug&watchdog=MS`: the watchdog's fixed wait shortened, to watch a hang's recovery without waiting. */
function debugWatchdogMs(): number | undefined {
  const ms = Number(new URLSearchParams(window.location.search).get("watchdog") ?? Number.NaN);
  return Number.isFinite(ms) && ms > 0 ? ms : undefined;
}
