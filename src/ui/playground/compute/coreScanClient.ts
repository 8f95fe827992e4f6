import * as Comlink from "comlink";
import type { Implementation, ScanOutputs, ScanProblem } from "../../../core";
import type { CoreChunkedRun, CoreScanWorkerApi } from "./coreScanWorker";
import { LatestOnly } from "./latestOnly";

/** The main thread's handle on coreScanWorker: one scan (and one bound) at a time, the newest waiting one next. */
export class CoreScanClient {
  private worker?: Worker;
  private api?: Comlink.Remote<CoreScanWorkerApi>;
  private readonly runner = new LatestOnly<CoreChunkedRun>();
  private readonly boundRunner = new LatestOnly<ScanOutputs<Float64Array>>();

  chunked(problem: ScanProblem): Promise<CoreChunkedRun> {
    return this.runner.run(() => this.remote().chunked(problem));
  }

  bounds(problem: ScanProblem, implementation: Implementation): Promise<ScanOutputs<Float64Array>> {
    return this.boundRunner.run(() => this.remote().bounds(problem, implementation));
  }

  private remote(): Comlink.Remote<CoreScanWorkerApi> {
    if (!this.api) {
      this.worker = new Worker(new URL("./coreScanWorker.ts", import.meta.url), { type: "module" });
      this.api = Comlink.wrap<CoreScanWorkerApi>(this.worker);
    }
    return this.api;
  }

  dispose(): void {
    this.api?.[Comlink.releaseProxy]();
    this.worker?.terminate();
    this.worker = undefined;
    this.api = undefined;
  }
}
