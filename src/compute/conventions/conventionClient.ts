import * as Comlink from "comlink";
import type { ConventionBatch, ConventionResult, Library } from "../../core";
import type { PictureAsk, PooledPicture } from "../heatmap/picture";
import { LatestOnly } from "../workerClient/latestOnly";
import { LazyWorker } from "../workerClient/lazyWorker";
import type { Difference } from "./conventionDifferences";
import type { ConventionOutput, ConventionRequest, EngineInputs, LibraryRun, WorkerRequest } from "./conventionRun";
import type { ConventionSummary } from "./conventionSummary";
import type { ConventionWorkerApi, Float32Answer, Float32Input, ReferenceAnswer } from "./conventionWorker";

/**
 * The main thread's handle on conventionWorker, started on first use; the newest waiting request
 * runs next. A request's batch is moved to the worker the first time it is seen (its arrays are
 * empty here afterwards: build a fresh batch for new rows) and named by an id from then on.
 */
export class ConventionClient {
  private readonly worker = new LazyWorker<ConventionWorkerApi>(
    () => new Worker(new URL("./conventionWorker.ts", import.meta.url), { type: "module" }),
  );
  private readonly references = new LatestOnly<ReferenceAnswer>();
  private readonly pictures = new LatestOnly<PooledPicture | null>();
  private readonly float32Runs = new LatestOnly<Float32Answer>();
  private readonly batchIds = new WeakMap<ConventionBatch<Float64Array>, number>();
  private lastBatch = 0;

  /** The id of the request's batch in the worker, moving it there first if it is new. */
  private wire(request: ConventionRequest): WorkerRequest {
    let batchId = this.batchIds.get(request.batch);
    if (batchId === undefined) {
      batchId = ++this.lastBatch;
      this.batchIds.set(request.batch, batchId);
      const { kl, values, lossMasks } = request.batch;
      const arrays: unknown[] = [...kl, ...(values ?? []), ...lossMasks];
      const views = arrays.filter((a): a is ArrayBufferView => ArrayBuffer.isView(a));
      // Messages reach the worker in order: every later call finds the batch there.
      void this.worker.remote().setBatch(batchId, Comlink.transfer(request.batch, uniqueBuffers(views)));
    }
    const { batch: _, ...rest } = request;
    return { ...rest, batchId };
  }

  /** The float64 runs of request `id`; the worker keeps them for `summarize` and `sentences`. */
  reference(id: number, request: ConventionRequest): Promise<ReferenceAnswer> {
    const wire = this.wire(request);
    return this.references.run(() => this.worker.remote().reference(id, wire));
  }

  float32(request: ConventionRequest): Promise<Float32Answer> {
    const wire = this.wire(request);
    return this.float32Runs.run(() => this.worker.remote().float32(wire));
  }

  /** The request's inputs in float32 for the engine, built in the worker (ask before `reference`: it waits behind it). */
  engineInputs(request: ConventionRequest): Promise<EngineInputs> {
    const { batchId } = this.wire(request);
    return this.worker.remote().engineInputs(batchId);
  }

  /**
   * Run `id`'s verdict and sentences (null when a newer reference has replaced it in the worker),
   * and the float32 run as padded tables: the run is moved to the worker and back.
   */
  summarize(
    id: number,
    float32: LibraryRun<Float32Array> | { library: LibraryRun["library"]; ragged: ConventionResult<Float32Array> },
    focusRow: number,
  ): Promise<{ summary: ConventionSummary | null; float32: LibraryRun<Float32Array> }> {
    const input = float32 as Float32Input;
    const arrays =
      "ragged" in input
        ? [...input.ragged.returns, ...input.ragged.advantages, ...input.ragged.tokenLevelRewards]
        : input.ok
          ? [input.tables.returns, input.tables.advantages, input.tables.tokenLevelRewards]
          : [];
    return this.worker.remote().summarize(id, Comlink.transfer(input, uniqueBuffers(arrays)), focusRow);
  }

  /**
   * The difference heatmap's picture of |`other` − the library shown| in `output` of run `id`,
   * pooled in the worker; null once a newer run is kept there. A newer ask supersedes a waiting one.
   */
  picture(id: number, other: Library, output: ConventionOutput, ask: PictureAsk): Promise<PooledPicture | null> {
    return this.pictures.run(() => this.worker.remote().picture(id, other, output, ask));
  }

  sentences(id: number, focusRow: number): Promise<Difference[] | null> {
    return this.worker.remote().sentences(id, focusRow);
  }

  dispose(): void {
    this.worker.dispose();
  }
}

/** Each buffer once (two views of one buffer cannot both be listed for transfer). */
function uniqueBuffers(arrays: ArrayBufferView[]): Transferable[] {
  return [...new Set(arrays.map((a) => a.buffer as ArrayBuffer))];
}
