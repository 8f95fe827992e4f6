import { type Implementation, outputErrorBounds, type ScanOutputs, type ScanProblem, solve } from "../../../core";
import { SupersededError } from "../../../engine/client";
import type { Strategy } from "../../../engine/strategy";
import { stateToProblem } from "../../../io/playgroundProblem";
import type { PlaygroundPrecision, PlaygroundRow, PlaygroundState } from "../../../io/playgroundState";
import { type ErrorSummary, summarizeErrors } from "./errorSummary";
import { type OutputTables, outputTables } from "./outputTables";
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
  /** Time of the two serial scans on the main thread, in ms. */
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

/** A finished run over the whole batch. */
export interface PlaygroundResult extends ResultTables {
  kind: ScanProblem["kind"];
  rows: number;
  cols: number;
  lengths: number[];
  summary: ErrorSummary;
  ran: RanWith;
  /** The state this run computed: figures belong to these inputs and settings only. */
  input: PlaygroundState;
}

/** One row recomputed alone while a stroke lasts: tables of one row, `cols` wide. */
export interface RowResult extends ResultTables {
  row: number;
  length: number;
  cols: number;
}

export interface ChunkedAnswer {
  outputs: ScanOutputs;
  backend: string;
  millis: number;
}

/** Runs the chunked side off the main thread (the engine worker or the core worker). */
export type ChunkedSolver = (
  problem: ScanProblem,
  precision: PlaygroundPrecision,
  strategy: Strategy,
) => Promise<ChunkedAnswer>;

export interface RunControl {
  solveChunked: ChunkedSolver;
  /** True once a newer request exists: the run stops at its next step with SupersededError. */
  isStale(): boolean;
  /** Lets the page breathe between steps (default: a macrotask), so no step becomes a long task. */
  yieldToPage?(): Promise<void>;
}

/** Which implementation's error bound applies to the chunked side. */
export function implementationOf(precision: PlaygroundPrecision, strategy: Strategy): Implementation {
  if (precision === "float64") return { precision: "float64", algorithm: "chunked" };
  if (precision === "slime-exact") return { precision: "float32", algorithm: "chunked" };
  return { precision: "float32", algorithm: strategy === "per-token" ? "serial" : strategy };
}

function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Solves the problems of a state: the chunked side is sent off first; meanwhile the float64 serial
 * reference, the float32 serial loop and the error bound run here, one step per task, then the
 * summary. Bad input throws core's ScanInputError (naming row and token).
 */
async function solveTables(
  state: PlaygroundState,
  p64: ScanProblem,
  p32: ScanProblem,
  cols: number,
  control: RunControl,
): Promise<ResultTables & { answer: ChunkedAnswer; serialMillis: number }> {
  const pause = control.yieldToPage ?? nextTask;
  const step = async () => {
    await pause();
    if (control.isStale()) throw new SupersededError();
  };
  const rows = p64.kind === "reinforce_pp" ? p64.batch.kl.length : p64.rewards.rows;
  const serialStart = performance.now();
  const reference = solve(p64, "serial").outputs as ScanOutputs<Float64Array>;
  let serialMillis = performance.now() - serialStart;
  const input = state.precision === "float64" ? p64 : p32;
  const pending = control.solveChunked(input, state.precision, state.strategy);
  pending.catch(() => {}); // awaited below; a failure before then must not go unhandled
  await step();
  const serialStart32 = performance.now();
  const serial32 = solve(p32, "serial").outputs as ScanOutputs<Float32Array>;
  serialMillis += performance.now() - serialStart32;
  await step();
  const bound = outputErrorBounds(p64, implementationOf(state.precision, state.strategy));
  await step();
  const answer = await pending;
  if (control.isStale()) throw new SupersededError();
  return {
    reference: outputTables(reference, rows, cols),
    chunked: outputTables(answer.outputs, rows, cols),
    serial32: outputTables(serial32, rows, cols),
    bound: outputTables(bound, rows, cols),
    answer,
    serialMillis,
  };
}

/** The whole batch: tables, summary and what ran. */
export async function runPlayground(
  state: PlaygroundState,
  rows: PlaygroundRow[],
  control: RunControl,
): Promise<PlaygroundResult> {
  const p64 = stateToProblem(state, "float64", rows);
  const p32 = stateToProblem(state, "float32", rows);
  const lengths = rows.map((row) => row.length);
  const cols = paddedWidth(p64);
  const { answer, serialMillis, ...tables } = await solveTables(state, p64, p32, cols, control);
  await (control.yieldToPage ?? nextTask)();
  if (control.isStale()) throw new SupersededError();
  const precision = state.precision === "float64" ? "float64" : "float32";
  const summary = summarizeErrors({ rows: rows.length, cols, lengths, ...tables, precision });
  const ran: RanWith = {
    precision: state.precision,
    backend: answer.backend,
    strategy: state.precision === "float32-engine" ? state.strategy : "chunked",
    chunkSize: state.chunkSize,
    millis: answer.millis,
    serialMillis,
  };
  return { kind: p64.kind, rows: rows.length, cols, lengths, ...tables, summary, ran, input: state };
}

/** Row `row` alone, padded to the batch's width so it gives the batch's bits (for live drawing). */
export async function runPlaygroundRow(
  state: PlaygroundState,
  rows: PlaygroundRow[],
  row: number,
  control: RunControl,
): Promise<RowResult> {
  const cols = rows.reduce((max, r) => Math.max(max, r.length), 0);
  const lone = [rows[row]];
  const p64 = rowProblem(stateToProblem(state, "float64", lone), 0, cols);
  const p32 = rowProblem(stateToProblem(state, "float32", lone), 0, cols);
  const { answer: _answer, serialMillis: _ms, ...tables } = await solveTables(state, p64, p32, cols, control);
  return { row, length: rows[row].length, cols, ...tables };
}
