/**
 * The library conventions off the main thread: every library compared in float64 (core's
 * runConvention), the error bound of the one shown, its float32 run when the engine does not
 * compute it, the float32 verdict and the sentences. At 16 × 8192 each of these is tens to
 * hundreds of ms, which on the main thread would stall drawing. The batch is moved here once
 * (setBatch) and kept; the page's later requests name it, and the engine's float32 inputs are
 * built here and moved out, so the main thread copies none of it (at 64 × 32768 cloning it cost
 * the page a task of over a second on every change).
 */
import * as Comlink from "comlink";
import type { ConventionBatch, ConventionResult, Library } from "../../core";
import { type PictureAsk, type PooledPicture, pictureBuffers } from "../heatmap/picture";
import type { Difference } from "./conventionDifferences";
import {
  type ConventionOutput,
  type ConventionReference,
  type ConventionRequest,
  type ConventionTables,
  conventionReference,
  type EngineInputs,
  float32Batch,
  type LibraryRun,
  paddedCols,
  runLibrary,
  tablesOf,
  type WorkerRequest,
} from "./conventionRun";
import { type ConventionSummary, sentencesFor, summarize } from "./conventionSummary";
import { DifferencePictures, type SentDifference } from "./differencePictures";

export interface Float32Answer {
  run: LibraryRun<Float32Array>;
  millis: number;
}

/** The float32 run to judge: padded tables (core's run here), or the engine's ragged result, padded here. */
export type Float32Input =
  | LibraryRun<Float32Array>
  | { library: LibraryRun["library"]; ragged: ConventionResult<Float32Array> };

/** The batches moved here, by id: the newest two (a request in flight may still name the one before). */
const batches = new Map<number, ConventionBatch<Float64Array>>();
/** The last reference computed, kept here for its summary and sentences. */
let kept: { id: number; request: ConventionRequest; reference: ConventionReference } | null = null;
/** The difference heatmap's pictures of the kept reference. */
const differences = new DifferencePictures();

/** A reference as the page gets it, with the difference heatmap's picture for the page's last ask. */
export type ReferenceAnswer = ConventionReference & { sentPicture?: SentDifference };

function requestOf(wire: WorkerRequest): ConventionRequest {
  const batch = batches.get(wire.batchId);
  if (!batch) throw new Error(`the convention worker has no batch ${wire.batchId}`);
  const { batchId: _, ...rest } = wire;
  return { ...rest, batch };
}

const api = {
  /** Keeps a batch under `batchId` (moved here: the page's arrays are empty afterwards). */
  setBatch(batchId: number, batch: ConventionBatch<Float64Array>): void {
    batches.set(batchId, batch);
    for (const id of batches.keys()) if (id < batchId - 1) batches.delete(id);
  },
  /** The engine's float32 inputs of a batch, built here and moved to the page (which moves them on). */
  engineInputs(batchId: number): EngineInputs {
    const batch = batches.get(batchId);
    if (!batch) throw new Error(`the convention worker has no batch ${batchId}`);
    const inputs = {
      batch: { ...float32Batch(batch), lossMasks: batch.lossMasks.map((mask) => Uint8Array.from(mask)) },
      cols: paddedCols(batch),
    };
    const { kl, values, lossMasks } = inputs.batch;
    const buffers = [...kl, ...(values ?? []), ...(lossMasks as Uint8Array[])].map((a) => a.buffer);
    return Comlink.transfer(inputs, buffers);
  },
  /**
   * Every library of the request in float64 and the bound of the first; `id` names the run for
   * `summarize`, `sentences` and `picture`. The difference heatmap's picture for the page's last
   * ask comes with it, so the heatmap draws it in the commit that brings the run.
   */
  reference(id: number, wire: WorkerRequest): ReferenceAnswer {
    const request = requestOf(wire);
    const reference = conventionReference(request);
    kept = { id, request, reference };
    differences.keep(id, reference, request.batch.lossMasks);
    const sent = differences.expected();
    // The page gets copies: the worker keeps its tables for the sentences and the pictures.
    const copy: ReferenceAnswer = {
      ...reference,
      runs: reference.runs.map((run) => (run.ok ? { ...run, tables: copyTables(run.tables) } : run)),
      bound: reference.bound ? copyTables(reference.bound) : null,
      ...(sent ? { sentPicture: sent } : {}),
    };
    const tables = [...copy.runs.flatMap((run) => (run.ok ? [run.tables] : [])), copy.bound];
    return Comlink.transfer(copy, [...buffersOf(tables), ...(sent ? pictureBuffers(sent.picture) : [])]);
  },
  /** The difference heatmap's picture of |`other` − shown| in `output` of run `id`; null once a newer run is kept. */
  picture(id: number, other: Library, output: ConventionOutput, ask: PictureAsk): PooledPicture | null {
    const picture = differences.picture(id, other, output, ask);
    return picture && Comlink.transfer(picture, pictureBuffers(picture));
  },
  /** The library shown, in float32 with core's rounding after every operation. */
  float32(wire: WorkerRequest): Float32Answer {
    const start = performance.now();
    const request = requestOf(wire);
    const batch = float32Batch(request.batch);
    const like = new Float32Array(0);
    const { libraries, estimator, params, allowNonFinite } = request;
    const run = runLibrary(libraries[0], estimator, batch, params, like, allowNonFinite === true);
    const answer = { run, millis: performance.now() - start };
    return Comlink.transfer(answer, run.ok ? buffersOf([run.tables]) : []);
  },
  /**
   * Run `id`'s float32 verdict and sentences, and the float32 run back as padded tables (moved in
   * and out); null summary when a newer reference replaced it.
   */
  summarize(
    id: number,
    input: Float32Input,
    focusRow: number,
  ): { summary: ConventionSummary | null; float32: LibraryRun<Float32Array> } {
    const float32: LibraryRun<Float32Array> =
      "ragged" in input
        ? {
            library: input.library,
            ok: true,
            tables: tablesOf(input.ragged, kept?.reference.cols ?? 0, new Float32Array(0)),
            rewardIndex: input.ragged.rewardIndex,
          }
        : input;
    const summary = kept?.id === id ? summarize(kept.request, kept.reference, float32, focusRow) : null;
    return Comlink.transfer({ summary, float32 }, float32.ok ? buffersOf([float32.tables]) : []);
  },
  /** Run `id`'s sentences pointing at another row; null when a newer reference replaced it. */
  sentences(id: number, focusRow: number): Difference[] | null {
    if (kept?.id !== id) return null;
    return sentencesFor(kept.request, kept.reference, focusRow);
  },
};

function copyTables(t: ConventionTables): ConventionTables {
  return {
    returns: t.returns.slice(),
    advantages: t.advantages.slice(),
    tokenLevelRewards: t.tokenLevelRewards.slice(),
  };
}

function buffersOf(tables: (ConventionTables<Float32Array | Float64Array> | null)[]): Transferable[] {
  return tables.flatMap((t) => (t ? [t.returns.buffer, t.advantages.buffer, t.tokenLevelRewards.buffer] : []));
}

export type ConventionWorkerApi = typeof api;

Comlink.expose(api);
