/**
 * The library conventions off the main thread: every library compared in float64 (core's
 * runConvention), the error bound of the one shown, its float32 run when the engine does not
 * compute it, the float32 verdict and the sentences. At 16 × 8192 each of these is tens to
 * hundreds of ms, which on the main thread would stall drawing.
 */
import * as Comlink from "comlink";
import type { Difference } from "./conventionDifferences";
import {
  type ConventionReference,
  type ConventionRequest,
  type ConventionTables,
  conventionReference,
  float32Batch,
  type LibraryRun,
  runLibrary,
} from "./conventionRun";
import { type ConventionSummary, sentencesFor, summarize } from "./conventionSummary";

export interface Float32Answer {
  run: LibraryRun<Float32Array>;
  millis: number;
}

/** The last reference computed, kept here for its summary and sentences. */
let kept: { id: number; request: ConventionRequest; reference: ConventionReference } | null = null;

const api = {
  /** Every library of the request in float64 and the bound of the first; `id` names the run for `summarize`. */
  reference(id: number, request: ConventionRequest): ConventionReference {
    const reference = conventionReference(request);
    kept = { id, request, reference };
    // The page gets copies: the worker keeps its tables for the sentences.
    const copy: ConventionReference = {
      ...reference,
      runs: reference.runs.map((run) => (run.ok ? { ...run, tables: copyTables(run.tables) } : run)),
      bound: reference.bound ? copyTables(reference.bound) : null,
    };
    const tables = [...copy.runs.flatMap((run) => (run.ok ? [run.tables] : [])), copy.bound];
    return Comlink.transfer(copy, buffersOf(tables));
  },
  /** The library shown, in float32 with core's rounding after every operation. */
  float32(request: ConventionRequest): Float32Answer {
    const start = performance.now();
    const batch = float32Batch(request.batch);
    const like = new Float32Array(0);
    const { libraries, estimator, params, allowNonFinite } = request;
    const run = runLibrary(libraries[0], estimator, batch, params, like, allowNonFinite === true);
    const answer = { run, millis: performance.now() - start };
    return Comlink.transfer(answer, run.ok ? buffersOf([run.tables]) : []);
  },
  /** Run `id`'s float32 verdict and sentences; null when a newer reference replaced it. */
  summarize(id: number, float32: LibraryRun<Float32Array>, focusRow: number): ConventionSummary | null {
    if (kept?.id !== id) return null;
    return summarize(kept.request, kept.reference, float32, focusRow);
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
