import type { SlimeSettings } from "../../core";
import { LatestOnly } from "../workerClient/latestOnly";
import { LazyWorker } from "../workerClient/lazyWorker";
import type { OpenAnswer, RunFile, RunWorkerApi } from "./runWorker";

/** The run view's worker: reading, understanding and replaying a dump; the newest request wins. */
export class RunClient {
  private readonly worker = new LazyWorker<RunWorkerApi>(
    () => new Worker(new URL("./runWorker.ts", import.meta.url), { type: "module" }),
  );
  private readonly latest = new LatestOnly<OpenAnswer>();

  /** The files are copied to the worker (the page keeps them, to save them in IndexedDB). */
  open(files: RunFile[], settings: Partial<SlimeSettings>): Promise<OpenAnswer> {
    return this.latest.run(() => this.worker.remote().open(files, settings));
  }

  replay(settings: Partial<SlimeSettings>): Promise<OpenAnswer> {
    return this.latest.run(() => this.worker.remote().replay(settings));
  }

  search(settings: Partial<SlimeSettings>) {
    return this.worker.remote().search(settings);
  }

  sample(index: number) {
    return this.worker.remote().sample(index);
  }

  dispose(): void {
    this.worker.dispose();
  }
}
