import * as Comlink from "comlink";
import type { BenchPlan } from "./benchPlan";
import type { BenchEnvironment, BenchRow } from "./benchResult";
import type { BenchEvent, BenchWorkerApi } from "./benchWorker";

/** A finished (or cancelled) run: where it ran, what it was asked, and every row measured. */
export interface BenchReport {
  environment: BenchEnvironment;
  plan: BenchPlan;
  rows: BenchRow[];
  /** Rows the plan had; fewer were measured when the run was cancelled or the worker died. */
  planned: number;
  cancelled: boolean;
  /** Why the run ended early, when it did not end by itself. */
  error?: string;
}

export interface BenchProgress {
  done: number;
  total: number;
  /** The row being measured now. */
  current?: string;
}

/**
 * The main thread's side of the bench worker. One worker serves runs one after another; cancelling
 * terminates it (the only way to stop a tfjs op mid-flight) and the next run starts a fresh one.
 */
export class BenchClient {
  private worker?: Worker;
  private api?: Comlink.Remote<BenchWorkerApi>;
  private stop?: (reason: string) => void;

  private connect(): Comlink.Remote<BenchWorkerApi> {
    if (!this.api) {
      this.worker = new Worker(new URL("./benchWorker.ts", import.meta.url), { type: "module", name: "scanlab-bench" });
      this.api = Comlink.wrap<BenchWorkerApi>(this.worker);
    }
    return this.api;
  }

  describe(): Promise<BenchEnvironment> {
    return this.connect().describe();
  }

  get running(): boolean {
    return this.stop !== undefined;
  }

  async run(
    plan: BenchPlan,
    onProgress: (p: BenchProgress) => void,
    onRow: (row: BenchRow) => void,
  ): Promise<BenchReport> {
    if (this.stop) throw new Error("a benchmark is already running");
    const api = this.connect();
    const rows: BenchRow[] = [];
    let planned = 0;
    let environment: BenchEnvironment = {
      userAgent: navigator.userAgent,
      hardwareConcurrency: 0,
      adapter: "",
      hasWebGPU: false,
    };
    // Ends the run early: "" when cancelled, otherwise why the worker stopped.
    const ended = new Promise<{ stopped: string }>((resolve) => {
      this.stop = (reason) => resolve({ stopped: reason });
      this.worker?.addEventListener("error", (e) =>
        resolve({ stopped: `the bench worker failed: ${e.message || "unknown error"}` }),
      );
    });
    const onEvent = (event: BenchEvent) => {
      planned = event.total;
      if (event.type === "case") onProgress({ done: event.index, total: event.total, current: event.label });
      else {
        rows.push(event.row);
        onRow(event.row);
        onProgress({ done: event.index + 1, total: event.total });
      }
    };
    const work = async () => {
      environment = await api.describe();
      await api.run(plan, Comlink.proxy(onEvent));
      return { stopped: undefined };
    };
    try {
      const { stopped } = await Promise.race([work(), ended]);
      if (stopped === undefined) return { environment, plan, rows, planned, cancelled: false };
      this.dispose();
      return { environment, plan, rows, planned, cancelled: true, ...(stopped ? { error: stopped } : {}) };
    } catch (error) {
      this.dispose();
      const message = error instanceof Error ? error.message : String(error);
      return { environment, plan, rows, planned, cancelled: true, error: message };
    } finally {
      this.stop = undefined;
    }
  }

  /** Stops the running benchmark; its rows so far stay in the report. */
  cancel(): void {
    this.stop?.("");
  }

  dispose(): void {
    this.worker?.terminate();
    this.worker = undefined;
    this.api = undefined;
  }
}
