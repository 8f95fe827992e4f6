/**
 * The playground's worker: it owns the result. The page sends a run (its id and the float64
 * problem) and gets back the finished result: both serial scans, core's chunked side (float64,
 * slime-exact, or the emulation of the engine's float32 shown until the engine answers), the
 * per-element bounds and the error summary, its tables transferred. For the engine's precision
 * the page forwards the engine's chunked outputs to `finish` (the engine's worker is the page's
 * own client, with its backend switching, cancel and watchdog); the serial scans and the bound
 * are computed in `prepare` meanwhile. Only the newest run's parts are kept, and the newest result's
 * tables, from which `picture` pools the heatmap (resultPictures.ts).
 */
import * as Comlink from "comlink";
import type { ScanOutputs, ScanProblem } from "../../core";
import { solve } from "../../core";
import { type PictureAsk, type PooledPicture, pictureBuffers } from "../heatmap/picture";
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
} from "./playgroundRun";
import { expectedPicture, keepResult, resultPicture } from "./resultPictures";

/** The chunked scan of one row while a stroke lasts. */
export interface CoreChunkedRun {
  outputs: ScanOutputs;
  millis: number;
}

let prepared: RunParts | null = null;

/** The result transferred to the page, its tables kept here for the heatmap's pictures. */
function answerOf(request: RunRequest, result: ComputedResult): ComputedResult {
  keepResult(request.id, result, request.lossMask);
  const sent = expectedPicture();
  const buffers = [...resultBuffers(result), ...(sent ? pictureBuffers(sent.picture) : [])];
  return Comlink.transfer({ ...result, pictures: request.id, sentPicture: sent ?? undefined }, buffers);
}

const api = {
  /** The whole run on core's side (slime-exact, float64, or the engine's precision emulated until it answers). */
  run(request: RunRequest): ComputedResult {
    prepared = null;
    return answerOf(request, finishRun(startRun(request)));
  },
  /** The engine's precision: the serial scans and the bound, while the engine runs the chunked side. */
  prepare(request: RunRequest): void {
    prepared = null;
    prepared = startRun(request);
  },
  /** The engine's precision: the result of the prepared run `id` with the engine's chunked outputs; null once newer. */
  finish(id: number, answer: ChunkedAnswer): ComputedResult | null {
    if (prepared?.request.id !== id) return null;
    const parts = prepared;
    prepared = null;
    return answerOf(parts.request, finishRun(parts, answer));
  },
  /** The heatmap's pooled picture of one output of the newest result (null: a newer result replaced `id`). */
  picture(id: number, output: OutputName, ask: PictureAsk): PooledPicture | null {
    return resultPicture(id, output, ask);
  },
  /** Core's chunked scan of a problem (one row of a stroke). */
  chunked(problem: ScanProblem): CoreChunkedRun {
    const start = performance.now();
    const { outputs } = solve(problem, "chunked");
    const run = { outputs, millis: performance.now() - start };
    return Comlink.transfer(run, outputBuffers(outputs));
  },
};

export type PlaygroundWorkerApi = typeof api;

Comlink.expose(api);
