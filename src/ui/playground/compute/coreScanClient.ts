import type { Implementation, ScanOutputs, ScanProblem } from "../../../core";
import { LatestOnly } from "../../workerClient/latestOnly";
import { LazyWorker } from "../../workerClient/lazyWorker";
import type { CoreChunkedRun, CoreScanWorkerApi } from "./coreScanWorker";

/** The main thread's handle on coreScanWorker: one scan (and one bound) at a time, the newest waiting one next. */
export class CoreScanClient {
  private readonly worker = new LazyWorker<CoreScanWorkerApi>(
    () => new Worker(new URL("./coreScanWorker.ts", import.meta.url), { type: "module" }),
  );
  private readonly runner = new LatestOnly<CoreChunkedRun>();
  private readonly boundRunner = new LatestOnly<ScanOutputs<Float64Array>>();

  chunked(problem: ScanProblem): Promise<CoreChunkedRun> {
    return this.runner.run(() => this.worker.remote().chunked(problem));
  }

  bounds(problem: ScanProblem, implementation: Implementation): Promise<ScanOutputs<Float64Array>> {
    return this.boundRunner.run(() => this.worker.remote().bounds(problem, implementation));
  }

  dispose(): void {
    this.worker.dispose();
  }
}
