import { useCallback, useEffect, useRef, useState } from "react";
import { summaryLine } from "../../conformance";
import type { AdapterInfo, BackendRequest } from "../../engine/backendNames";
import { EngineClient, SupersededError } from "../../engine/client";
import type { Strategy } from "../../engine/strategy";
import { parseCaseFile } from "../../io/caseFile";
import type { ScanCase } from "../../io/caseSchema";
import { type UrlState, writeUrlState } from "../urlState";
import { CaseFileLoader } from "./CaseFileLoader";
import { ConformanceSummary } from "./ConformanceSummary";
import { EngineControls } from "./EngineControls";
import { FaultControls } from "./FaultControls";
import { Notices } from "./Notices";
import { type CaseRow, runConformance } from "./runConformance";
import { VerdictTable } from "./VerdictTable";

export interface ConformanceViewProps {
  initial: UrlState;
  urlProblems: string[];
  /** Shows the fault-injection buttons (`?debug` in the address). */
  debug?: boolean;
}

interface Loaded {
  cases: ScanCase[];
  fileName: string;
}

/**
 * Checks a case file on the tensor engine in the worker: every case against its float32
 * tolerance, on the chosen backend and strategy. Loading a file, or changing the backend or
 * the strategy, starts a run; the newest run wins.
 */
export function ConformanceView({ initial, urlProblems, debug = false }: ConformanceViewProps) {
  const [client, setClient] = useState<EngineClient | null>(null);
  const [backendRequest, setBackendRequest] = useState<BackendRequest>(initial.backend);
  const [strategy, setStrategy] = useState<Strategy>(initial.strategy);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [rows, setRows] = useState<(CaseRow | undefined)[]>([]);
  const [summary, setSummary] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const [backend, setBackend] = useState<string | null>(null);
  const [adapter, setAdapter] = useState<AdapterInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [runCount, setRunCount] = useState(0);
  const runId = useRef(0);

  // One engine client (one worker) for the view's lifetime.
  useEffect(() => {
    const engine = new EngineClient({ backend: initial.backend });
    const unsubscribe = engine.subscribe((event) => {
      if (event.type === "ready") {
        setBackend(event.report.backend);
        setAdapter(event.report.adapter ?? null);
      } else setNotice(event.message);
    });
    setClient(engine);
    return () => {
      unsubscribe();
      engine.dispose();
    };
  }, [initial.backend]);

  useEffect(() => {
    writeUrlState({ view: "conformance", backend: backendRequest, strategy });
  }, [backendRequest, strategy]);

  // Only a change of the requested backend replaces the worker: after a fallback restart the
  // client keeps running on the lower backend until the user picks another one.
  useEffect(() => {
    if (!client) return;
    client.selectBackend(backendRequest);
    setNotice(null);
    setBackend(null);
    setAdapter(null);
    // Start the worker at once, so the backend (or its fallback notice) shows before any run.
    client.ready().catch(() => {}); // a failure to start arrives as a notice
  }, [client, backendRequest]);

  // A run starts whenever the cases, the backend or the strategy change (or on "Run again").
  // biome-ignore lint/correctness/useExhaustiveDependencies: runCount only re-triggers the run.
  useEffect(() => {
    if (!client || !loaded) return;
    const id = ++runId.current;
    const { cases } = loaded;
    setRows(new Array(cases.length).fill(undefined));
    setSummary(null);
    setRunning(true);
    setError(null);
    runConformance(client, cases, strategy, (row, index) => {
      if (runId.current !== id) return;
      setRows((previous) => {
        const next = previous.slice();
        next[index] = row;
        return next;
      });
      if (row.backend) setBackend(row.backend);
    })
      .then((run) => {
        if (runId.current !== id) return;
        setSummary(summaryLine(run.rows.map((r) => r.verdict)));
        setBackend(run.backend);
      })
      .catch((reason: unknown) => {
        if (runId.current !== id || reason instanceof SupersededError) return;
        setError(`The run stopped: ${reason instanceof Error ? reason.message : String(reason)}`);
      })
      .finally(() => {
        if (runId.current === id) setRunning(false);
      });
  }, [client, loaded, strategy, backendRequest, runCount]);

  const onText = useCallback((text: string, sourceName: string) => {
    try {
      const file = parseCaseFile(text, sourceName);
      setLoaded({ cases: file.cases, fileName: sourceName });
    } catch (reason) {
      // A bad file leaves whatever was showing in place.
      setError(reason instanceof Error ? reason.message : String(reason));
    }
  }, []);

  const done = rows.filter((row) => row !== undefined).length;
  return (
    <div className="conformance-view">
      <h2>Conformance</h2>
      <p className="view-intro">
        Runs every case of a golden file on the tensor engine (in a Web Worker) and compares it with the float64 truth,
        within the case's float32 tolerance.
      </p>
      <Notices error={error} notice={notice} urlProblems={urlProblems} />
      <div className="conformance-controls">
        <CaseFileLoader onText={onText} onError={setError} />
        <EngineControls
          backend={backendRequest}
          strategy={strategy}
          onBackend={setBackendRequest}
          onStrategy={setStrategy}
        />
        <button type="button" disabled={!loaded || running} onClick={() => setRunCount((n) => n + 1)}>
          Run again
        </button>
      </div>
      {debug ? <FaultControls client={client} onError={setError} /> : null}
      <ConformanceSummary
        summary={summary}
        done={done}
        total={loaded?.cases.length ?? 0}
        running={running}
        backend={backend}
        adapter={backend === "webgpu" ? adapter : null}
        fileName={loaded?.fileName ?? null}
      />
      {loaded ? <VerdictTable cases={loaded.cases} rows={rows} /> : null}
    </div>
  );
}
