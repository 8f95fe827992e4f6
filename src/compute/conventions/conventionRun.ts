import {
  allowingNonFinite,
  type BatchedScanOrder,
  type ConventionBatch,
  type ConventionEstimator,
  type ConventionParams,
  type ConventionResult,
  conventionErrorBounds,
  type FloatArray,
  type Library,
  runConvention,
  ScanInputError,
} from "../../core";

/** The three outputs of a convention, in the order the panel offers them. */
export const CONVENTION_OUTPUTS = ["returns", "advantages", "tokenLevelRewards"] as const;
export type ConventionOutput = (typeof CONVENTION_OUTPUTS)[number];

/** Each output as a padded `[rows, cols]` row-major table (zeros past each row's length). */
export type ConventionTables<A extends FloatArray = Float64Array> = Record<ConventionOutput, A>;

/** One library on the batch: its tables, where it put each outcome reward, or why it refused the input. */
export type LibraryRun<A extends FloatArray = Float64Array> =
  | { library: Library; ok: true; tables: ConventionTables<A>; rewardIndex: number[] }
  | { library: Library; ok: false; error: string };

export interface ConventionRequest {
  estimator: ConventionEstimator;
  /** The batched scans that compute the float32 run (the engine's strategy), for its bound; absent: each library's own. */
  order?: BatchedScanOrder;
  /** The library shown first, then the ones compared with it. */
  libraries: Library[];
  batch: ConventionBatch<Float64Array>;
  params: ConventionParams;
  /**
   * Run NaN and ±Inf in the inputs instead of refusing them (the playground's lesson: each library's
   * rules carry them to different tokens); absent, a library refuses them with core's message.
   */
  allowNonFinite?: boolean;
}

/**
 * A request as the convention worker receives it: the batch was moved there once (setBatch) and is
 * named by its id, so a γ change or a library switch sends a few numbers, not the batch again.
 */
export type WorkerRequest = Omit<ConventionRequest, "batch"> & { batchId: number };

/** The float32 problem the engine runs: the batch in float32 with byte masks, and the padded width. */
export interface EngineInputs {
  batch: ConventionBatch<Float32Array>;
  cols: number;
}

/** Every library of the request in float64 (core's runConvention, the reference), and the bound of the first. */
export interface ConventionReference {
  rows: number;
  cols: number;
  lengths: number[];
  runs: LibraryRun[];
  /** Per-element bound on |float32 − float64| of the library shown (null when it refused the input). */
  bound: ConventionTables | null;
}

export function paddedCols(batch: ConventionBatch): number {
  return batch.kl.reduce((max, row) => Math.max(max, row.length), 0);
}

/** Ragged rows right-padded with zeros into one `[rows, cols]` table. */
export function padRagged<A extends FloatArray>(ragged: A[], cols: number, like: A): A {
  const out = (
    like instanceof Float32Array ? new Float32Array(ragged.length * cols) : new Float64Array(ragged.length * cols)
  ) as A;
  ragged.forEach((row, b) => {
    out.set(row.subarray(0, cols), b * cols);
  });
  return out;
}

export function tablesOf<A extends FloatArray>(
  result: ConventionResult<A>,
  cols: number,
  like: A,
): ConventionTables<A> {
  return {
    returns: padRagged(result.returns, cols, like),
    advantages: padRagged(result.advantages, cols, like),
    tokenLevelRewards: padRagged(result.tokenLevelRewards, cols, like),
  };
}

/** One library in the batch's precision; an input the library rejects is reported, not thrown. */
export function runLibrary<A extends FloatArray>(
  library: Library,
  estimator: ConventionEstimator,
  batch: ConventionBatch<A>,
  params: ConventionParams,
  like: A,
  allowNonFinite = false,
): LibraryRun<A> {
  try {
    const run = () => runConvention(library, estimator, batch, params);
    const result = allowNonFinite ? allowingNonFinite(run) : run();
    return { library, ok: true, tables: tablesOf(result, paddedCols(batch), like), rewardIndex: result.rewardIndex };
  } catch (thrown) {
    if (thrown instanceof ScanInputError) return { library, ok: false, error: thrown.referenceText };
    throw thrown;
  }
}

/** The float64 runs of every library asked for, and the error bound of the one shown. */
export function conventionReference(request: ConventionRequest): ConventionReference {
  const { estimator, libraries, batch, params, order } = request;
  const cols = paddedCols(batch);
  const like = new Float64Array(0);
  const allow = request.allowNonFinite === true;
  const runs = libraries.map((library) => runLibrary(library, estimator, batch, params, like, allow));
  const shown = runs[0];
  const bound =
    shown?.ok === true
      ? tablesOf(conventionErrorBounds(shown.library, estimator, batch, params, "float32", order), cols, like)
      : null;
  return { rows: batch.kl.length, cols, lengths: batch.kl.map((row) => row.length), runs, bound };
}

/** The batch converted to float32 (its inputs are float32 values already, so nothing changes but the type). */
export function float32Batch(batch: ConventionBatch<Float64Array>): ConventionBatch<Float32Array> {
  return {
    rewards: Array.from(batch.rewards),
    kl: batch.kl.map((row) => Float32Array.from(row)),
    lossMasks: batch.lossMasks,
    ...(batch.values ? { values: batch.values.map((row) => Float32Array.from(row)) } : {}),
  };
}
