import * as Comlink from "comlink";
import type { SlimeSettings } from "../../core";
import { LazyWorker } from "../workerClient/lazyWorker";
import type { RunFile, RunFolderEvent, RunWorkerApi } from "./runWorker";

/**
 * A run folder's summary in a worker of its own: Cancel ends that worker (a step's read is one
 * synchronous task there, which no message could interrupt), while the step view's worker, and the
 * dump it holds, stay as they are.
 */
export class RunFolderClient {
  private readonly worker = new LazyWorker<RunWorkerApi>(
    () => new Worker(new URL("./runWorker.ts", import.meta.url), { type: "module" }),
  );
  private cancelled: (() => void) | null = null;

  /** Resolves when every step was read, rejects with "cancelled" when cancel() ends it first. */
  summarise(
    files: RunFile[],
    settings: Partial<SlimeSettings>,
    onEvent: (event: RunFolderEvent) => void,
  ): Promise<void> {
    this.cancel();
    return new Promise<void>((resolve, reject) => {
      this.cancelled = () => reject(new Error("cancelled"));
      this.worker
        .remote()
        .summariseRun(files, settings, Comlink.proxy(onEvent))
        .then(resolve, reject)
        .finally(() => {
          this.cancelled = null;
        });
    });
  }

  cancel(): void {
    const cancelled = this.cancelled;
    if (!cancelled) return;
    this.cancelled = null;
    this.worker.dispose();
    cancelled();
  }

  dispose(): void {
    this.cancel();
    this.worker.dispose();
  }
}
