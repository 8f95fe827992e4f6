import { LatestOnly } from "../../workerClient/latestOnly";
import { LazyWorker } from "../../workerClient/lazyWorker";
import type { Difference } from "./conventionDifferences";
import type { ConventionReference, ConventionRequest, LibraryRun } from "./conventionRun";
import type { ConventionSummary } from "./conventionSummary";
import type { ConventionWorkerApi, Float32Answer } from "./conventionWorker";

/** The main thread's handle on conventionWorker, started on first use; the newest waiting request runs next. */
export class ConventionClient {
  private readonly worker = new LazyWorker<ConventionWorkerApi>(
    () => new Worker(new URL("./conventionWorker.ts", import.meta.url), { type: "module" }),
  );
  private readonly references = new LatestOnly<ConventionReference>();
  private readonly float32Runs = new LatestOnly<Float32Answer>();

  /** The float64 runs of request `id`; the worker keeps them for `summarize` and `sentences`. */
  reference(id: number, request: ConventionRequest): Promise<ConventionReference> {
    return this.references.run(() => this.worker.remote().reference(id, request));
  }

  float32(request: ConventionRequest): Promise<Float32Answer> {
    return this.float32Runs.run(() => this.worker.remote().float32(request));
  }

  /** Null when a newer reference has replaced run `id` in the worker. */
  summarize(id: number, float32: LibraryRun<Float32Array>, focusRow: number): Promise<ConventionSummary | null> {
    return this.worker.remote().summarize(id, float32, focusRow);
  }

  sentences(id: number, focusRow: number): Promise<Difference[] | null> {
    return this.worker.remote().sentences(id, focusRow);
  }

  dispose(): void {
    this.worker.dispose();
  }
}
