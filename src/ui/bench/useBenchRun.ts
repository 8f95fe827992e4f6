import { useCallback, useEffect, useRef, useState } from "react";
import { BenchClient, type BenchProgress, type BenchReport } from "../../compute/bench/benchClient";
import type { BenchPlan } from "../../compute/bench/benchPlan";
import type { BenchEnvironment, BenchRow } from "../../compute/bench/benchResult";

/** What `npm run bench` calls in the page (and a test may): runs a plan as the Run button does. */
export interface ScanlabBenchHook {
  run(plan: BenchPlan): Promise<BenchReport>;
}

declare global {
  interface Window {
    scanlabBench?: ScanlabBenchHook;
    /** Set by a driver (the bench command) to hear of each row as it finishes. */
    scanlabBenchOnRow?: (row: BenchRow) => void;
  }
}

export interface BenchRunState {
  environment?: BenchEnvironment;
  environmentError?: string;
  rows: BenchRow[];
  progress?: BenchProgress;
  running: boolean;
  /** The last run's end: how many rows of how many, cancelled or not, and why it stopped early. */
  report?: BenchReport;
  start(plan: BenchPlan): Promise<BenchReport>;
  cancel(): void;
}

/** The panel's run: one bench worker, its progress and rows, and the hook the command drives. */
export function useBenchRun(): BenchRunState {
  const client = useRef<BenchClient | null>(null);
  const [environment, setEnvironment] = useState<BenchEnvironment>();
  const [environmentError, setEnvironmentError] = useState<string>();
  const [rows, setRows] = useState<BenchRow[]>([]);
  const [progress, setProgress] = useState<BenchProgress>();
  const [running, setRunning] = useState(false);
  const [report, setReport] = useState<BenchReport>();

  useEffect(() => {
    const own = new BenchClient();
    client.current = own;
    own.describe().then(setEnvironment, (error: unknown) => {
      setEnvironmentError(error instanceof Error ? error.message : String(error));
    });
    return () => {
      own.dispose();
      if (client.current === own) client.current = null;
    };
  }, []);

  const start = useCallback(async (plan: BenchPlan) => {
    const own = client.current;
    if (!own) throw new Error("the benchmark panel is not ready");
    setRows([]);
    setReport(undefined);
    setRunning(true);
    setProgress({ done: 0, total: 0 });
    try {
      const done = await own.run(plan, setProgress, (row) => {
        setRows((previous) => [...previous, row]);
        window.scanlabBenchOnRow?.(row);
      });
      setEnvironment(done.environment);
      setReport(done);
      return done;
    } finally {
      setRunning(false);
    }
  }, []);

  const cancel = useCallback(() => client.current?.cancel(), []);

  useEffect(() => {
    window.scanlabBench = { run: start };
    return () => {
      delete window.scanlabBench;
    };
  }, [start]);

  return { environment, environmentError, rows, progress, running, report, start, cancel };
}
