import type { Library } from "../../core";
import { conventionLibraries, conventionOf, conventionParams, stateToConvention } from "../../io/conventionProblem";
import type { PlaygroundRow, PlaygroundState } from "../../io/playgroundState";
import type { ConventionClient } from "./conventionClient";
import type { Difference } from "./conventionDifferences";
import type { ConventionReference, ConventionRequest, LibraryRun } from "./conventionRun";
import type { SentDifference } from "./differencePictures";
import type { Float32Check } from "./float32Check";

/** The float32 run of the library shown: where it ran, and its tables (or why the library refused the input). */
export interface Float32Run<R = LibraryRun<Float32Array>> {
  /** Padded tables; from the engine, its ragged result until the worker pads it (summarize). */
  run: R;
  /** "core float32", or the engine's backend. */
  backend: string;
  millis: number;
}

/** Runs the library shown in float32: in core's float32 (the convention worker) or on the engine. */
export interface Float32Solver {
  solve(request: ConventionRequest): Promise<Float32Run<Parameters<ConventionClient["summarize"]>[1]>>;
  /** The scans it computes with, for the error bound (absent: each library's own loops). */
  order?: ConventionRequest["order"];
  /** It runs on the engine worker (as the conventions' caller, after the page's own requests). */
  usesEngine: boolean;
}

/** What the conventions panel draws: every library in float64, the shown one in float32, and its check. */
export interface ConventionView extends ConventionReference {
  estimator: ConventionRequest["estimator"];
  libraries: Library[];
  float32: Float32Run | null;
  check: Float32Check | null;
  /** The rules that differ, naming spans of `sentencesRow` first (computed in the worker). */
  sentences: Difference[];
  sentencesRow: number;
  /** The state these numbers belong to. */
  input: PlaygroundState;
  /** The run's id in the convention worker (for the sentences of another row and the heatmap's pictures). */
  id: number;
  /** The difference heatmap's picture for the last ask, pooled with the run (differencePictures.ts). */
  sentPicture?: SentDifference;
}

export interface ConventionStatus {
  view: ConventionView | null;
  computing: boolean;
  error: string | null;
  /** Finished runs, for scripts to wait on. */
  runs: number;
  /** Where the difference heatmap's pictures are pooled: the convention worker, which keeps the run's tables. */
  pictures: Pick<ConventionClient, "picture"> | null;
}

/**
 * The float64 inputs of a state, built once per rows array, estimator and client (a γ change reuses
 * them): the client moves the batch to its worker, so another client needs a batch of its own.
 */
const inputsCache = new WeakMap<
  PlaygroundRow[],
  { estimator: string; client: ConventionClient; request: ConventionRequest }
>();

export function requestFor(
  state: PlaygroundState,
  rows: PlaygroundRow[],
  client: ConventionClient,
): ConventionRequest | null {
  const cached = inputsCache.get(rows);
  let base = cached?.estimator === state.estimator && cached.client === client ? cached.request : null;
  if (!base) {
    const inputs = stateToConvention(state, "float64", rows);
    if (!inputs) return null;
    // Masks as bytes: a worker receives typed arrays in one copy, plain arrays number by number.
    const batch = { ...inputs.batch, lossMasks: inputs.batch.lossMasks.map((mask) => Uint8Array.from(mask)) };
    // The panel runs NaN and ±Inf as the playground does, to show where each library carries them.
    base = { ...inputs, libraries: [], batch: batch as ConventionRequest["batch"], allowNonFinite: true };
    inputsCache.set(rows, { estimator: state.estimator, client, request: base });
  }
  return { ...base, libraries: conventionLibraries(conventionOf(state)), params: conventionParams(state) };
}

/** The settings and data that change what the conventions compute. */
export function conventionKey(state: PlaygroundState): string {
  const { estimator, gamma, lambd, klCoef, precision, strategy } = state;
  return JSON.stringify([estimator, gamma, lambd, klCoef, precision, strategy, conventionOf(state)]);
}
