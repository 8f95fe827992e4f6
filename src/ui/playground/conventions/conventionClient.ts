import * as Comlink from "comlink";
import { LatestOnly } from "../compute/latestOnly";
import type { Difference } from "./conventionDifferences";
import type { ConventionReference, ConventionRequest, LibraryRun } from "./conventionRun";
import type { ConventionSummary } from "./conventionSummary";
import type { ConventionWorkerApi, Float32Answer } from "./conventionWorker";

/** The main thread's handle on conventionWorker, started on first use; the newest waiting request runs next. */
export class ConventionClient {
  private worker?: Worker;
  private api?: Comlink.Remote<ConventionWorkerApi>;
  private readonly references = new LatestOnly<ConventionReference>();
  private readonly float32Runs = new LatestOnly<Float32Answer>();

  /** The float64 runs of request `id`; the worker keeps them for `summarize` and `sentences`. */
  reference(id: number, request: ConventionRequest): Promise<ConventionReference> {
    return this.references.run(() => this.remote().reference(id, request));
  }

  float32(request: ConventionRequest): Promise<Float32Answer> {
    return this.float32Runs.run(() => this.remote().float32(request));
  }

  /** Null when a newer reference has replaced run `id` in the worker. */
  summarize(id: number, float32: LibraryRun<Float32Array>, focusRow: number): Promise<ConventionSummary | null> {
    return this.remote().summarize(id, float32, focusRow);
  }

  sentences(id: number, focusRow: number): Promise<Difference[] | null> {
    return this.remote().sentences(id, focusRow);
  }

  dispose(): void {
    this.api?.[Comlink.releaseProxy]();
    this.worker?.terminate();
    this.worker = undefined;
    this.api = undefined;
  }

  private remote(): Comlink.Remote<ConventionWorkerApi> {
    if (!this.api) {
      this.worker = new Worker(new URL("./conventionWorker.ts", import.meta.url), { type: "module" });
      this.api = Comlink.wrap<ConventionWorkerApi>(this.worker);
    }
    return this.api;
  }
}
