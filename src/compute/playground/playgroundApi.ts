/**
 * What the playground's worker does (playgroundWorker.ts exposes it): it owns the result. The page
 * sends a run (its id and the float64 problem) and gets back the finished result: both serial
 * scans, core's chunked side (float64, slime-exact, or the emulation of the engine's float32 shown
 * until the engine answers), the per-element bounds and the error summary, its tables transferred.
 * For the engine's precision the engine's worker posts its chunked outputs to `finishFrom` on a
 * port the page gave both (the engine's worker is the page's own client, with its backend
 * switching, cancel and watchdog); the serial scans and the bound are computed in `prepare` meanwhile. Only the newest run's parts are
 * kept, and one result's tables, from which `picture` pools the heatmap (resultPictures.ts).
 */
import * as Comlink from "comlink";
import type { ScanOutputs, ScanProblem } from "../../core";
import { solve } from "../../core";
import { withInputs } from "../../engine/keptInputs";
import { REFILL_AFTER_MS, WarmTables } from "../../engine/warmTables";
import { type PictureAsk, type PooledPicture, pictureBuffers } from "../heatmap/picture";
import { type CarryAsk, type CarryRowResult, splitCarryRow } from "./carryRow";
import type { OutputName } from "./outputTables";
import {
  type ChunkedAnswer,
  type ComputedResult,
  finishRun,
  outputBuffers,
  type RunParts,
  type RunRequest,
  resultBuffers,
  startRun,
  toFloat32,
} from "./playgroundRun";
import { type KeptTables, type RestoredOutput, ResultPictures } from "./resultPictures";

/** The chunked scan of one row while a stroke lasts. */
export interface CoreChunkedRun {
  outputs: ScanOutputs;
  millis: number;
}

/** A worker's state (the prepared run, the kept result) and what the page may ask of it. */
export function playgroundApi() {
  let prepared: { parts: RunParts; kept: Pick<KeptTables, "reference" | "bound"> } | null = null;
  const pictures = new ResultPictures();
  const warm = new WarmTables();
  /** The input arrays of the last run sent with them, float64 and float32: a later run may ask for them. */
  let inputs: { p64: ScanProblem; p32: ScanProblem } | null = null;
  /** The run whose engine outputs finishFrom awaits, and how to give up on them. */
  let awaited: { id: number; resolve(answer: null): void } | null = null;

  /** A request on its input arrays (those sent, or those kept), and its float32 problem. */
  function withArrays(request: RunRequest): { request: RunRequest; p32: ScanProblem } {
    if (!request.keptInputs) {
      // None kept while converting: a conversion that throws leaves no stale arrays to run on.
      inputs = null;
      inputs = { p64: request.problem, p32: toFloat32(request.problem) };
      return { request, p32: inputs.p32 };
    }
    if (!inputs) throw new Error("the run's inputs were not sent to this worker");
    const { problem } = request;
    return { request: { ...request, problem: withInputs(problem, inputs.p64) }, p32: withInputs(problem, inputs.p32) };
  }

  /**
   * The result transferred to the page, copies of its tables kept here for the heatmap's pictures
   * (`kept`: copies made already, those of the tables known before the engine's answer).
   */
  function answerOf(request: RunRequest, result: ComputedResult, kept?: Partial<KeptTables>): ComputedResult {
    const own = {
      rows: result.rows,
      cols: result.cols,
      lengths: result.lengths,
      reference: kept?.reference ?? pictures.copies(result.reference),
      chunked: pictures.copies(result.chunked),
      bound: kept?.bound ?? pictures.copies(result.bound),
    };
    pictures.keep(request.id, own, request.lossMask, true);
    const sent = pictures.expected();
    const buffers = [...resultBuffers(result), ...(sent ? pictureBuffers(sent.picture) : [])];
    // The next run's tables, made a while after this answer is posted (not beside the page drawing it).
    setTimeout(() => warm.refill(), REFILL_AFTER_MS);
    return Comlink.transfer({ ...result, pictures: request.id, sentPicture: sent ?? undefined }, buffers);
  }

  /** The engine's precision: the result of the prepared run `id` with the engine's chunked outputs; null once newer. */
  function finish(id: number, answer: ChunkedAnswer): ComputedResult | null {
    if (prepared?.parts.request.id !== id) return null;
    const { parts, kept } = prepared;
    prepared = null;
    const result = finishRun(parts, answer);
    // The engine ran another strategy than asked: its own bound, copied here.
    const bound = result.bound === parts.bound.tables ? kept.bound : undefined;
    return answerOf(parts.request, result, { reference: kept.reference, bound });
  }

  return {
    /** The whole run on core's side (slime-exact, float64, or the engine's precision emulated until it answers). */
    run(sent: RunRequest): ComputedResult {
      prepared = null;
      const { request, p32 } = withArrays(sent);
      warm.begin();
      return answerOf(request, finishRun(startRun(request, p32, warm.take)));
    },
    /**
     * The engine's precision: the serial scans and the bound, while the engine runs the chunked
     * side, and the copies of them that the heatmap's pictures keep (not made after the answer).
     */
    prepare(sent: RunRequest): void {
      prepared = null;
      const { request, p32 } = withArrays(sent);
      warm.begin();
      const parts = startRun(request, p32, warm.take);
      const reference = pictures.copies(parts.reference);
      pictures.prepareMeasure(reference, request.lengths.length * parts.cols);
      prepared = { parts, kept: { reference, bound: pictures.copies(parts.bound.tables) } };
    },
    /**
     * The engine's precision: the result of the prepared run `id` with the engine's chunked outputs,
     * as the engine's worker posts them on `port` (not through the page); null once newer, or once
     * the page says the engine gave none (`abandon`).
     */
    async finishFrom(id: number, port: MessagePort): Promise<ComputedResult | null> {
      const answer = await new Promise<ChunkedAnswer | null>((resolve) => {
        awaited = { id, resolve };
        port.onmessage = (event: MessageEvent<ChunkedAnswer>) => resolve(event.data);
      });
      port.close();
      if (awaited?.id === id) awaited = null;
      return answer && finish(id, answer);
    },
    /** The engine gave run `id` no outputs (it failed, or was cancelled or replaced): its finishFrom answers null. */
    abandon(id: number): void {
      if (awaited?.id === id) awaited.resolve(null);
    },
    /**
     * Keeps an output of result `id`, sent back by the page, for the heatmap's pictures: the page
     * shows it still, and this worker started after the one that computed it was ended (a cancel).
     */
    restore(id: number, output: OutputName, tables: RestoredOutput, lossMask?: Uint8Array): void {
      pictures.restore(id, output, tables, lossMask);
    },
    /** The heatmap's pooled picture of one output of the kept result (null: another result is kept). */
    picture(id: number, output: OutputName, ask: PictureAsk): PooledPicture | null {
      return pictures.picture(id, output, ask);
    },
    /** One row split into local sums and carries (the returns chart's bands). */
    carryRow(ask: CarryAsk): CarryRowResult {
      const split = splitCarryRow(ask);
      if (!split.ok) return split;
      const { local, carried, total, carriesIn, gaps } = split.row;
      const buffers = new Set([local.buffer, carried.buffer, total.buffer, carriesIn.buffer, gaps.buffer]);
      return Comlink.transfer(split, [...buffers] as ArrayBuffer[]);
    },
    /** Core's chunked scan of a problem (one row of a stroke). */
    chunked(problem: ScanProblem): CoreChunkedRun {
      const start = performance.now();
      const { outputs } = solve(problem, "chunked");
      const run = { outputs, millis: performance.now() - start };
      return Comlink.transfer(run, outputBuffers(outputs));
    },
  };
}

export type PlaygroundWorkerApi = ReturnType<typeof playgroundApi>;
