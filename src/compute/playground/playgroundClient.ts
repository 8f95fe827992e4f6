import * as Comlink from "comlink";
import type { ScanProblem } from "../../core";
import { CancelledError } from "../../engine/client";
import { sameInputs, withoutInputs } from "../../engine/keptInputs";
import type { PictureAsk, PooledPicture } from "../heatmap/picture";
import { LatestOnly } from "../workerClient/latestOnly";
import { LazyWorker } from "../workerClient/lazyWorker";
import type { CarryAsk, CarryRowResult } from "./carryRow";
import type { OutputName } from "./outputTables";
import type { CoreChunkedRun, PlaygroundWorkerApi } from "./playgroundApi";
import type { ComputedResult, RunRequest } from "./playgroundRun";
import type { KeptTables } from "./resultPictures";
import { cloneProblem } from "./rowProblem";

/**
 * A copy of the problem whose every array is a typed array of its own, marked for transfer: a
 * worker then gets it moved, not structured-cloned (the loss masks' plain arrays of 64 × 32768
 * numbers took about 2 s of the main thread to clone).
 */
export function forTransfer(problem: ScanProblem): ScanProblem {
  const { copy, buffers } = ownCopy(problem);
  return Comlink.transfer(copy, buffers);
}

/** The copy forTransfer sends, and its buffers (Comlink sees a transfer list on an argument itself only). */
function ownCopy(problem: ScanProblem): { copy: ScanProblem; buffers: ArrayBuffer[] } {
  let copy: ScanProblem;
  let arrays: ArrayBufferView[];
  if (problem.kind === "reinforce_pp") {
    // One pass per array, straight into a typed array of its own (cloneProblem's masks stay plain arrays).
    const { rewards, kl, lossMasks } = problem.batch;
    const batch = { rewards: Array.from(rewards), kl: kl.map((row) => row.slice()), lossMasks: lossMasks.map(float64) };
    copy = { ...problem, batch };
    arrays = [...batch.kl, ...batch.lossMasks];
  } else {
    const clone = cloneProblem(problem) as Exclude<ScanProblem, { kind: "reinforce_pp" }>;
    copy = clone;
    arrays = clone.kind === "gae" ? [clone.rewards.data, clone.values.data] : [clone.rewards.data];
  }
  const buffers = new Set<ArrayBuffer>();
  for (const a of arrays) if (a.buffer instanceof ArrayBuffer) buffers.add(a.buffer);
  return { copy, buffers: [...buffers] };
}

function float64(row: ArrayLike<number>): Float64Array {
  return row instanceof Float64Array ? row.slice() : Float64Array.from(row);
}

/** A handle on a worker running playgroundApi: a test gives one on the same thread. */
export interface PlaygroundWorkerHandle {
  remote(): Comlink.Remote<PlaygroundWorkerApi>;
  /** Ends the worker (what it kept is lost); a later remote() starts a fresh one. */
  dispose(): void;
}

/** The loss masks of this many of the newest results are remembered, to send back with a shown one. */
const MASKS_KEPT = 4;

/**
 * The main thread's handle on playgroundWorker: one run at a time, the newest waiting one next (an
 * older waiting one rejects with SupersededError); the same for a stroke's rows. `cancel` ends the
 * worker (a fresh one starts on the next run) and rejects what was asked of it with CancelledError.
 */
export class PlaygroundClient {
  /** The result whose tables the worker keeps for pictures, and which of its outputs ("all": as computed). */
  private kept: { id: number; outputs: "all" | Set<OutputName> } | null = null;
  /** The loss mask each of the newest results was run with (the heatmap's hatching when one is sent back). */
  private readonly masks = new Map<number, Uint8Array | undefined>();
  /** Counts the workers ended: an answer of an ended one keeps nothing in the next. */
  private ended = 0;
  /** The problem whose input arrays the worker got last, and in which of its workers (`ended` then). */
  private sentInputs: { problem: ScanProblem; ended: number } | null = null;

  constructor(
    private readonly worker: PlaygroundWorkerHandle = new LazyWorker<PlaygroundWorkerApi>(
      () => new Worker(new URL("./playgroundWorker.ts", import.meta.url), { type: "module" }),
    ),
  ) {}

  private runs = new LatestOnly<ComputedResult | null>();
  private rows = new LatestOnly<CoreChunkedRun>();
  private pictures = new LatestOnly<PooledPicture | null>();
  private carries = new LatestOnly<CarryRowResult>();
  private readonly pending = new Set<(reason: unknown) => void>();

  /**
   * The result of a run: core's chunked side when `engine` is not given; else the engine's, which
   * its worker posts on `engine.port` straight to this client's worker (EngineClient.runOutputsKept)
   * while that one scans the serial sides and the bound; `engine.asked` settles as the engine's run
   * does. Null when a newer run was prepared in between. A bad input rejects with core's error (it
   * names row and token), not the engine's.
   */
  result(request: RunRequest, engine?: { asked: Promise<unknown>; port: MessagePort }): Promise<ComputedResult | null> {
    engine?.asked.catch(() => {}); // awaited below, once the worker has the run
    return this.cancellable(
      this.runs.run(async () => {
        const remote = this.worker.remote();
        const ended = this.ended;
        const sent = this.sendable(request);
        if (!engine) return this.delivered(request, await remote.run(sent), ended);
        const prepared = remote.prepare(sent);
        prepared.catch(() => {});
        const finished = remote.finishFrom(request.id, Comlink.transfer(engine.port, [engine.port]));
        finished.catch(() => {});
        try {
          await engine.asked;
        } catch (error) {
          // No outputs will come on the port: the worker stops waiting for them. (Should they have
          // come all the same, the worker keeps that result's tables now: noted, then dropped.)
          await remote.abandon(request.id);
          await prepared;
          this.delivered(request, await finished, ended);
          throw error;
        }
        await prepared;
        return this.delivered(request, await finished, ended);
      }),
    );
  }

  /**
   * The request as it is posted now: without its input arrays when the worker has them from the
   * last run it was sent (keptInputs.ts), else with a copy of them that the worker takes.
   */
  private sendable(request: RunRequest): RunRequest {
    const last = this.sentInputs;
    if (last && last.ended === this.ended && sameInputs(last.problem, request.problem))
      return { ...request, problem: withoutInputs(request.problem), keptInputs: true };
    this.sentInputs = { problem: request.problem, ended: this.ended };
    const { copy, buffers } = ownCopy(request.problem);
    return Comlink.transfer({ ...request, problem: copy }, buffers);
  }

  /** Notes a result the worker answered with: it keeps its tables now. */
  private delivered(request: RunRequest, result: ComputedResult | null, ended: number): ComputedResult | null {
    if (!result || ended !== this.ended) return result;
    this.kept = { id: request.id, outputs: "all" };
    this.masks.set(request.id, request.lossMask);
    for (const id of this.masks.keys()) if (this.masks.size > MASKS_KEPT) this.masks.delete(id);
    return result;
  }

  /** Core's chunked scan of one row (a stroke's live row). */
  chunked(problem: ScanProblem): Promise<CoreChunkedRun> {
    const sent = forTransfer(problem);
    return this.cancellable(this.rows.run(() => this.worker.remote().chunked(sent)));
  }

  /**
   * The heatmap's pooled picture of an output of result `id` (its `pictures`), which the page shows
   * (`shown`, its tables). The worker that computed it keeps its tables; one started since (after a
   * cancel ended that one) or that computed a result the page dropped (a newer run failed) is sent the
   * output's tables first, so a resize still gets a picture of what is shown. Null when the worker
   * has no such output. A newer ask supersedes a waiting one (SupersededError).
   */
  picture(id: number, output: OutputName, ask: PictureAsk, shown: KeptTables): Promise<PooledPicture | null> {
    return this.cancellable(
      this.pictures.run(async () => {
        const remote = this.worker.remote();
        const { kept } = this;
        const has = kept?.id === id && (kept.outputs === "all" || kept.outputs.has(output));
        const reference = shown.reference[output];
        const actual = shown.chunked[output];
        if (!has && reference && actual) {
          const { rows, cols, lengths } = shown;
          // Copied (not transferred): the page reads these tables still.
          await remote.restore(
            id,
            output,
            { rows, cols, lengths, reference, actual, bound: shown.bound[output] },
            this.masks.get(id),
          );
          const outputs = kept?.id === id && kept.outputs !== "all" ? kept.outputs : new Set<OutputName>();
          this.kept = { id, outputs: outputs.add(output) };
        }
        return remote.picture(id, output, ask);
      }),
    );
  }

  /**
   * The carries of one row, split off the page's thread (a large row's split is 10⁸ multiply-adds).
   * The ask's lanes are moved, not copied: they were made for this ask alone, and are unusable after.
   */
  carryRow(ask: CarryAsk): Promise<CarryRowResult> {
    const buffers = Object.values(ask.lanes).map((lane) => lane.buffer);
    return this.cancellable(this.carries.run(() => this.worker.remote().carryRow(Comlink.transfer(ask, buffers))));
  }

  /** Stops what the worker is doing: it is ended, and what was asked of it rejects with CancelledError. */
  cancel(): void {
    for (const reject of this.pending) reject(new CancelledError());
    this.pending.clear();
    this.worker.dispose();
    this.ended++;
    this.kept = null;
    this.runs = new LatestOnly();
    this.rows = new LatestOnly();
    this.pictures = new LatestOnly();
    this.carries = new LatestOnly();
  }

  dispose(): void {
    this.cancel();
  }

  private cancellable<T>(asked: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.add(reject);
      asked.then(resolve, reject).finally(() => this.pending.delete(reject));
    });
  }
}
