import { BatchPictures, type PictureAsk, type PooledPicture } from "../compute/heatmap/picture";
import type { OutputName } from "../compute/playground/outputTables";
import { finishRun, type ResultTables, type RunRequest, startRun } from "../compute/playground/playgroundRun";
import { problemsFor } from "../compute/playground/problemCache";
import { materializeRows } from "../io/playgroundProblem";
import type { PlaygroundState } from "../io/playgroundState";
import { BASE_SETTINGS } from "../io/presets";

/**
 * A slime-exact GAE run of a seeded ragged preset `rows × tokens` (chunk size 4), as the page asks
 * the playground worker for it, its padded loss mask 0 over `masked` (flat indices [from, to)).
 */
export function presetRequest(
  id: number,
  shape: { rows: number; tokens: number; seed: number },
  masked: [number, number],
): RunRequest & { lossMask: Uint8Array } {
  const state: PlaygroundState = {
    ...BASE_SETTINGS,
    estimator: "gae",
    gamma: 0.99,
    lambd: 0.95,
    chunkSize: 4,
    precision: "slime-exact",
    data: { source: "preset", preset: "dense", ...shape, ragged: true },
  };
  const rows = materializeRows(state);
  const { p64 } = problemsFor(state, rows);
  const lengths = rows.map((row) => row.length);
  const lossMask = new Uint8Array(shape.rows * shape.tokens).fill(1).fill(0, ...masked);
  return { id, problem: p64, precision: "slime-exact", strategy: "chunked", lengths, lossMask };
}

/** The finished result of a presetRequest, computed on this thread, and the mask it was asked with. */
export function presetResult(
  id: number,
  shape: { rows: number; tokens: number; seed: number },
  masked: [number, number],
) {
  const request = presetRequest(id, shape, masked);
  return { lossMask: request.lossMask, result: finishRun(startRun(request)) };
}

/** The heatmap's picture of one output of a result, pooled on this thread from its tables (what a worker must match). */
export function pooledHere(
  result: ResultTables & { rows: number; cols: number; lengths: number[] },
  output: OutputName,
  lossMask: Uint8Array,
  ask: PictureAsk,
): PooledPicture {
  const { rows, cols, lengths } = result;
  const reference = result.reference[output] ?? [];
  const actual = result.chunked[output] ?? [];
  return new BatchPictures({ rows, cols, lengths, reference, actual, bound: result.bound[output], lossMask }).picture(
    ask,
  );
}
