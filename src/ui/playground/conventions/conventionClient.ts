import * as Comlink from "comlink";
import { LatestOnly } from "../compute/latestOnly";
import type { ConventionReference, ConventionRequest } from "./conventionRun";
import type { ConventionWorkerApi, Float32Answer } from "./conventionWorker";

/** The main thread's handle on conventionWorker, started on first use; the newest waiting request runs next. */
export class ConventionClient {
  private worker?: Worker;
  private api?: Comlink.Remote<ConventionWorkerApi>;
  private readonly references = new LatestOnly<ConventionReference>();
  private readonly float32Runs = new LatestOnly<Float32Answer>();

  reference(request: ConventionRequest): Promise<ConventionReference> {
    return this.references.run(() => this.remote().reference(request));
  }

  float32(request: ConventionRequest): Promise<Float32Answer> {
    return this.float32Runs.run(() => this.remote().float32(request));
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
