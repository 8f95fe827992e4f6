import * as Comlink from "comlink";
import type { SlimeSettings } from "../../core";
import { LazyWorker } from "../workerClient/lazyWorker";
import type { RunFile, RunFolderEvent, RunWorkerApi } from "./runWorker";

/**
 * Steps up to this size are read two at a time, by two workers: a step of a run folder is read
 * on its own (its memory is its own), so two workers use two cores where one left the second idle;
 * larger steps are read one at a time, to keep the page's memory that of one step.
 */
export const TWO_WORKERS_MAX_STEP_BYTES = 64 * 2 ** 20;

/** How many workers read a folder whose largest file is this size, on a machine with this many cores. */
export function folderWorkers(largestFileBytes: number, cores: number): number {
  return cores >= 2 && largestFileBytes <= TWO_WORKERS_MAX_STEP_BYTES ? 2 : 1;
}

/**
 * A run folder's summary in workers of its own: Cancel ends them (a step's read is one synchronous
 * task there, which no message could interrupt), while the step view's worker, and the dump it
 * holds, stay as they are.
 */
export class RunFolderClient {
  private readonly workers = [0, 1].map(
    () =>
      new LazyWorker<RunWorkerApi>(() => new Worker(new URL("./runWorker.ts", import.meta.url), { type: "module" })),
  );
  private cancelled: (() => void) | null = null;

  /** Resolves when every step was read, rejects with "cancelled" when cancel() ends it first. */
  summarise(
    files: RunFile[],
    settings: Partial<SlimeSettings>,
    onEvent: (event: RunFolderEvent) => void,
  ): Promise<void> {
    this.cancel();
    const largest = Math.max(0, ...files.map((f) => f.blob.size));
    const of = folderWorkers(largest, globalThis.navigator?.hardwareConcurrency ?? 1);
    const run = (part: number, events: (event: RunFolderEvent) => void) =>
      this.workers[part].remote().summariseRun(files, settings, Comlink.proxy(events), { part, of });
    // The second worker starts once the first step's row is in (or the first worker is done): the
    // first row comes as soon as one worker alone can bring it.
    let startSecond = () => {};
    const firstRowIn = new Promise<void>((go) => {
      startSecond = go;
    });
    const first = run(0, (event) => {
      onEvent(event);
      if (event.type === "step") startSecond();
    });
    first.then(startSecond, startSecond);
    const runs = of === 2 ? [first, firstRowIn.then(() => run(1, onEvent))] : [first];
    return new Promise<void>((resolve, reject) => {
      this.cancelled = () => reject(new Error("cancelled"));
      Promise.all(runs)
        .then(() => resolve(), reject)
        .finally(() => {
          this.cancelled = null;
        });
    });
  }

  /**
   * Starts the first worker, so that its module is loaded and compiled before a folder comes: the
   * first step's row would wait for it.
   */
  warm(): void {
    this.workers[0].remote();
  }

  cancel(): void {
    const cancelled = this.cancelled;
    if (!cancelled) return;
    this.cancelled = null;
    for (const w of this.workers) w.dispose();
    cancelled();
  }

  dispose(): void {
    this.cancel();
    for (const w of this.workers) w.dispose();
  }
}
