import {
  type FloatArray,
  type Implementation,
  outputErrorBounds,
  type ScanOutputs,
  type ScanProblem,
  solve,
  type Zeros,
  zerosLike,
} from "../../core";
import { stateToProblem } from "../../io/playgroundProblem";
import type { PlaygroundPrecision, PlaygroundRow, PlaygroundState } from "../../io/playgroundState";
import { STRATEGY_ALGORITHM, type Strategy } from "../../names/strategies";
import type { SentPicture } from "../heatmap/picture";
import { relFloor } from "./cellErrors";
import { ErrorAccumulator, type ErrorSummary } from "./errorSummary";
import { type OutputName, type OutputTables, outputTables } from "./outputTables";
import { paddedWidth, rowProblem } from "./rowProblem";

/** What produced the chunked side of a result, as the page reports it. */
export interface RanWith {
  precision: PlaygroundPrecision;
  /** The backend that really ran: the engine's `tf.getBackend()`, or core's emulation. */
  backend: string;
  strategy: string;
  chunkSize: number;
  /** Time of the chunked run where it ran (a worker), in ms. */
  millis: number;
  /** Time of the two serial scans (in the playground worker), in ms. */
  serialMillis: number;
}

/** The tables of a run, padded `[rows, cols]` row-major (zeros past each row's length). */
export interface ResultTables {
  /** float64 serial scan (core): the truth. */
  reference: OutputTables<Float64Array>;
  /** The chunked side in the chosen precision. */
  chunked: OutputTables;
  /** float32 serial loop (core): does chunking make float32 worse or better than the plain loop? */
  serial32: OutputTables<Float32Array>;
  /** Per-element bound on |chunked − reference| (core's error bound for what ran). */
  bound: OutputTables<Float64Array>;
}

/** A finished run over the whole batch, as the playground worker computes it (without its input). */
export interface ComputedResult extends ResultTables {
  kind: ScanProblem["kind"];
  rows: number;
  cols: number;
  lengths: number[];
  summary: ErrorSummary;
  ran: RanWith;
  /**
   * The id under which the playground worker keeps this result's tables for the heatmap's pictures
   * (resultPictures.ts); absent for a result computed on the page itself (teaching size).
   */
  pictures?: number;
  /** The heatmap's picture of this result for the page's last ask, pooled with it (resultPictures.ts). */
  sentPicture?: SentPicture<OutputName>;
}

/** A finished run, with the state it computed: figures belong to these inputs and settings only. */
export interface PlaygroundResult extends ComputedResult {
  input: PlaygroundState;
}

export interface ChunkedAnswer {
  outputs: ScanOutputs;
  backend: string;
  /** The strategy that ran (the engine replaces one its backend cannot run); core's emulation is chunked. */
  strategy: Strategy;
  millis: number;
}

/** Runs the chunked side of one row off the main thread (the engine worker or the playground worker). */
export type ChunkedSolver = (
  problem: ScanProblem,
  precision: PlaygroundPrecision,
  strategy: Strategy,
) => Promise<ChunkedAnswer>;

/** What a run asks of the playground worker: the float64 problem (the float32 one is its conversion). */
export interface RunRequest {
  /** The page's run id: the worker keeps the newest run's parts, an older id's answer is dropped. */
  id: number;
  problem: ScanProblem;
  precision: PlaygroundPrecision;
  strategy: Strategy;
  lengths: number[];
  /** The padded loss mask (0 = masked), kept by the worker for the heatmap's hatching. */
  lossMask?: Uint8Array;
  /** The problem's input arrays are sent empty: they are those of the worker's last run (keptInputs.ts). */
  keptInputs?: boolean;
}

/**
 * The steps of a whole-batch run, as the busy line names them: the engine's run (the worker scans
 * the references and bounds alongside), the playground worker's own run, and the summary after the
 * engine's answer.
 */
export type RunPhase = "engine" | "worker" | "summary";

/** What each step is, as the page says it. */
export function phaseLabel(phase: RunPhase): string {
  switch (phase) {
    case "engine":
      return "the engine run (the float64 and float32 serial scans and the error bounds alongside)";
    case "worker":
      return "the serial scans, core's chunked scan, the error bounds and the summary";
    case "summary":
      return "summarising the errors";
  }
}

/** Which implementation's error bound applies to the chunked side. */
export function implementationOf(precision: PlaygroundPrecision, strategy: Strategy): Implementation {
  if (precision === "float64") return { precision: "float64", algorithm: "chunked" };
  if (precision === "slime-exact") return { precision: "float32", algorithm: "chunked" };
  return { precision: "float32", algorithm: STRATEGY_ALGORITHM[strategy] };
}

/** The busy line: what is running and for how long (null phase: the run is starting). */
export function progressText(phase: RunPhase | null, elapsedMs: number): string {
  const seconds = `${(elapsedMs / 1000).toFixed(1)} s`;
  return phase ? `Running: ${phaseLabel(phase)}, ${seconds}` : `Starting the run, ${seconds}`;
}

/** What core's chunked scan is called on screen, by the precision asked for. */
export const CORE_LABEL: Record<PlaygroundPrecision, string> = {
  // The engine's answer replaces it: until then core's emulation of the engine's float32 chunked scan is shown.
  "float32-engine": "core float32 emulation",
  // slime-exact multiplies with torch's own CPU float32 powers (core/torchPow), not fl32(γ)^k: say so.
  "slime-exact": "core float32 (slime's order, torch CPU float32 powers)",
  float64: "core float64",
};

/** The float32 problem of a float64 one: its inputs are float32 values already, so the copy is exact. */
export function toFloat32(problem: ScanProblem): ScanProblem {
  switch (problem.kind) {
    case "discounted":
      return { ...problem, rewards: { ...problem.rewards, data: Float32Array.from(problem.rewards.data) } };
    case "gae":
      return {
        ...problem,
        rewards: { ...problem.rewards, data: Float32Array.from(problem.rewards.data) },
        values: { ...problem.values, data: Float32Array.from(problem.values.data) },
      };
    case "reinforce_pp":
      return { ...problem, batch: { ...problem.batch, kl: problem.batch.kl.map((row) => Float32Array.from(row)) } };
  }
}

/** Core's chunked scan of the side a precision runs (float64, or float32 for slime-exact and the engine's emulation). */
export function coreChunked(p64: ScanProblem, p32: ScanProblem, precision: PlaygroundPrecision): ChunkedAnswer {
  const start = performance.now();
  const { outputs } = solve(precision === "float64" ? p64 : p32, "chunked");
  return { outputs, backend: CORE_LABEL[precision], strategy: "chunked", millis: performance.now() - start };
}

/** The parts of a run that do not need the chunked side: both serial scans, and the bound of what was asked. */
export interface RunParts {
  request: RunRequest;
  p32: ScanProblem;
  cols: number;
  reference: OutputTables<Float64Array>;
  serial32: OutputTables<Float32Array>;
  serialMillis: number;
  /** The summary's relative floor of each reference output (a pass over it not left for after the answer). */
  floors: Partial<Record<OutputName, number>>;
  /** The bound for the strategy asked for (the engine may run another: finishRun then computes its own). */
  bound: { implementation: Implementation; tables: OutputTables<Float64Array> };
}

/**
 * The serial scans and the bound of a request (`p32`: its float32 problem, when made already;
 * `zeros`: where their tables come from, warmTables.ts). Bad input throws core's ScanInputError
 * (naming row and token) from the float64 scan of the whole batch.
 */
export function startRun(request: RunRequest, p32 = toFloat32(request.problem), zeros: Zeros = zerosLike): RunParts {
  const { problem: p64, precision, strategy, lengths } = request;
  const rows = lengths.length;
  const cols = paddedWidth(p64);
  const start = performance.now();
  const reference = outputTables(solve(p64, "serial", { zeros }).outputs as ScanOutputs<Float64Array>, rows, cols);
  const serial32 = outputTables(solve(p32, "serial", { zeros }).outputs as ScanOutputs<Float32Array>, rows, cols);
  const serialMillis = performance.now() - start;
  const implementation = implementationOf(precision, strategy);
  const tables = outputTables(outputErrorBounds(p64, implementation, zeros), rows, cols);
  const floors: Partial<Record<OutputName, number>> = {};
  const summaryPrecision = precision === "float64" ? "float64" : "float32";
  for (const [name, table] of Object.entries(reference) as [OutputName, Float64Array | undefined][])
    if (table) floors[name] = relFloor(table, summaryPrecision);
  return { request, p32, cols, reference, serial32, serialMillis, floors, bound: { implementation, tables } };
}

/** The result of a run from its parts and its chunked side (core's, when none is given). */
export function finishRun(parts: RunParts, answer?: ChunkedAnswer): ComputedResult {
  const { request, p32, cols, reference, serial32, serialMillis, floors } = parts;
  const { problem: p64, precision, lengths } = request;
  const rows = lengths.length;
  const chunkedAnswer = answer ?? coreChunked(p64, p32, precision);
  // The engine ran another strategy than asked (its backend cannot run that one): its own bound.
  const ran = implementationOf(precision, chunkedAnswer.strategy);
  const bound =
    ran.algorithm === parts.bound.implementation.algorithm
      ? parts.bound.tables
      : outputTables(outputErrorBounds(p64, ran), rows, cols);
  const chunked = outputTables(chunkedAnswer.outputs, rows, cols);
  const tables = { reference, chunked, serial32, bound };
  const errors = new ErrorAccumulator({
    rows,
    cols,
    lengths,
    ...tables,
    precision: precision === "float64" ? "float64" : "float32",
    floors,
  });
  for (const name of errors.outputs) errors.add(name, 0, rows);
  return {
    kind: p64.kind,
    rows,
    cols,
    lengths,
    ...tables,
    summary: errors.summary(),
    ran: {
      precision,
      backend: chunkedAnswer.backend,
      strategy: chunkedAnswer.strategy,
      chunkSize: p64.chunkSize,
      millis: chunkedAnswer.millis,
      serialMillis,
    },
  };
}

/** The buffers of a scan's outputs, once each (for Comlink.transfer). */
export function outputBuffers(outputs: ScanOutputs): ArrayBuffer[] {
  const arrays =
    outputs.kind === "discounted"
      ? [outputs.returns]
      : outputs.kind === "gae"
        ? [outputs.advantages, outputs.returns]
        : [...outputs.returns, ...outputs.tokenLevelRewards];
  return [...new Set(arrays.map((a) => a.buffer as ArrayBuffer))];
}

/** Every typed array's buffer in a result, once each (for Comlink.transfer). */
export function resultBuffers(result: ResultTables): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const tables of [result.reference, result.chunked, result.serial32, result.bound]) {
    for (const a of Object.values(tables) as FloatArray[]) if (a.buffer instanceof ArrayBuffer) buffers.add(a.buffer);
  }
  return [...buffers];
}

/** Batches up to this many tokens are teaching size: a stroke on one is shown whole as the pointer moves. */
export const PREVIEW_CELLS = 2 ** 12;

/** Whether a batch is of teaching size. */
export function previewable(rows: PlaygroundRow[]): boolean {
  let cells = 0;
  for (const row of rows) cells += row.length;
  const longest = rows.reduce((max, row) => Math.max(max, row.length), 0);
  return cells <= PREVIEW_CELLS && rows.length * longest <= 2 * PREVIEW_CELLS;
}

/** The edited row's chunked output while a stroke lasts (only what the editor draws). */
export interface LiveRow {
  row: number;
  /** Chunked outputs of the row, padded to the batch's width: the same bits the whole batch gives. */
  chunked: OutputTables;
  length: number;
}

/**
 * Row `row` alone, padded to the batch's width so that its scan gives the batch's bits, through
 * the chunked side only: no serial reference, no bounds, so a stroke costs the main thread a few
 * ms per frame. The whole batch (reference, errors, bounds) follows on release.
 */
export async function runLiveRow(
  state: PlaygroundState,
  rows: PlaygroundRow[],
  row: number,
  solveChunked: ChunkedSolver,
): Promise<LiveRow> {
  const cols = rows.reduce((max, r) => Math.max(max, r.length), 0);
  const precision = state.precision === "float64" ? "float64" : "float32";
  const problem = rowProblem(stateToProblem(state, precision, [rows[row]]), 0, cols);
  const answer = await solveChunked(problem, state.precision, state.strategy);
  return { row, chunked: outputTables(answer.outputs, 1, cols), length: rows[row].length };
}
