/**
 * The library conventions off the main thread: every library compared in float64 (core's
 * runConvention), the error bound of the one shown, and its float32 run when the engine does not
 * compute it. At 16 × 8192 each library is tens of ms, which on the main thread would stall drawing.
 */
import * as Comlink from "comlink";
import {
  type ConventionReference,
  type ConventionRequest,
  type ConventionTables,
  conventionReference,
  float32Batch,
  type LibraryRun,
  runLibrary,
} from "./conventionRun";

export interface Float32Answer {
  run: LibraryRun<Float32Array>;
  millis: number;
}

const api = {
  reference(request: ConventionRequest): ConventionReference {
    const reference = conventionReference(request);
    const tables = [...reference.runs.flatMap((run) => (run.ok ? [run.tables] : [])), reference.bound];
    return Comlink.transfer(reference, buffersOf(tables));
  },
  /** The library shown, in float32 with core's rounding after every operation. */
  float32(request: ConventionRequest): Float32Answer {
    const start = performance.now();
    const batch = float32Batch(request.batch);
    const like = new Float32Array(0);
    const run = runLibrary(request.libraries[0], request.estimator, batch, request.params, like);
    const answer = { run, millis: performance.now() - start };
    return Comlink.transfer(answer, run.ok ? buffersOf([run.tables]) : []);
  },
};

function buffersOf(tables: (ConventionTables<Float32Array | Float64Array> | null)[]): Transferable[] {
  return tables.flatMap((t) => (t ? [t.returns.buffer, t.advantages.buffer, t.tokenLevelRewards.buffer] : []));
}

export type ConventionWorkerApi = typeof api;

Comlink.expose(api);
