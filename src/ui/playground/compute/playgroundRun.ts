import {
  type FloatArray,
  type Implementation,
  outputErrorBounds,
  type ScanOutputs,
  type ScanProblem,
  solve,
} from "../../../core";
import { SupersededError } from "../../../engine/client";
import { STRATEGY_ALGORITHM, type Strategy } from "../../../engine/strategy";
import { stateToProblem } from "../../../io/playgroundProblem";
import type { PlaygroundPrecision, PlaygroundRow, PlaygroundState } from "../../../io/playgroundState";
import { ErrorAccumulator, type ErrorSummary } from "./errorSummary";
import { type OutputTables, outputTables, paddedTables } from "./outputTables";
import { problemsFor } from "./problemCache";
import { paddedWidth, rowLength, rowProblem } from "./rowProblem";

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

export interface ChunkedAnswer {
  outputs: ScanOutputs;
  backend: string;
  /** The strategy that ran (the engine replaces one its backend cannot run); core's emulation is chunked. */
  strategy: Strategy;
  millis: number;
}

/** Runs the chunked side off the main thread (the engine worker or the core worker). */
export type ChunkedSolver = (
  problem: ScanProblem,
  precision: PlaygroundPrecision,
  strategy: Strategy,
) => Promise<ChunkedAnswer>;

/** Computes the per-element bounds (core's outputErrorBounds) somewhere; default: here. */
export type BoundSolver = (problem: ScanProblem, implementation: Implementation) => Promise<ScanOutputs<Float64Array>>;

export interface RunControl {
  solveChunked: ChunkedSolver;
  /** Where the error bounds are computed (the core worker in the page). */
  solveBounds?: BoundSolver;
  /** True once a newer request exists: the run stops at its next step with SupersededError. */
  isStale(): boolean;
  /** Lets the page breathe between steps (default: a macrotask), so no step becomes a long task. */
  yieldToPage?(): Promise<void>;
  /** Told what the run is doing as each step starts (the page shows it while busy). */
  onPhase?(phase: RunPhase): void;
}

/** The steps of a whole-batch run, in order; the engine (or core worker) runs alongside the first three. */
export type RunPhase = "reference" | "serial32" | "chunked" | "summary";

/** What each step is, as the page says it; `backend` names where the chunked side runs. */
export function phaseLabel(phase: RunPhase, precision: PlaygroundPrecision): string {
  const where = precision === "float32-engine" ? "the engine run" : "the core worker's chunked scan";
  switch (phase) {
    case "reference":
      return `float64 serial reference (${where} started alongside)`;
    case "serial32":
      return `float32 serial loop (${where} alongside)`;
    case "chunked":
      return `waiting for ${where} and the error bounds`;
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
export function progressText(phase: RunPhase | null, precision: PlaygroundPrecision, elapsedMs: number): string {
  const seconds = `${(elapsedMs / 1000).toFixed(1)} s`;
  return phase ? `Running: ${phaseLabel(phase, precision)}, ${seconds}` : `Starting the run, ${seconds}`;
}

/** Cells summarised per task: a few ms each. */
const SUMMARY_SLICE = 2 ** 13;

/**
 * Cells of serial scan per task (whole rows, at least one): about 10 ms, so the page's own slices
 * stay short even when the engine's threads hold the cores and stretch each one 2–3× in wall time.
 */
const SERIAL_SLICE = 2 ** 14;

/**
 * The serial scan of every row as padded `[rows, cols]` tables, a few rows per task (a serial
 * scan is row by row, so each row's bits are the whole batch's). Bad input is thrown by a scan of
 * the whole batch, so that the error names the batch's row, not the slice's.
 */
async function serialTables<A extends FloatArray>(
  problem: ScanProblem,
  rows: number,
  cols: number,
  step: () => Promise<void>,
): Promise<{ tables: OutputTables<A>; millis: number }> {
  let tables: OutputTables<A> | undefined;
  let cells = 0;
  let millis = 0;
  for (let r = 0; r < rows; r++) {
    let row: OutputTables<A>;
    const start = performance.now();
    try {
      row = outputTables(solve(rowProblem(problem, r, cols), "serial").outputs as ScanOutputs<A>, 1, cols);
    } catch (error) {
      solve(problem, "serial");
      throw error;
    }
    tables ??= Object.fromEntries(
      Object.entries(row).map(([name, a]) => [name, new (a.constructor as Float64ArrayConstructor)(rows * cols)]),
    ) as OutputTables<A>;
    const length = rowLength(problem, r);
    for (const [name, a] of Object.entries(row) as [keyof OutputTables<A>, A][]) {
      (tables[name] as A).set(a.subarray(0, length), r * cols);
    }
    millis += performance.now() - start;
    cells += cols;
    if (cells >= SERIAL_SLICE && r + 1 < rows) {
      cells = 0;
      await step();
    }
  }
  tables ??= outputTables(solve(problem, "serial").outputs as ScanOutputs<A>, rows, cols);
  return { tables, millis };
}

/** Yields to the page: scheduler.yield where the browser has it (no 4 ms clamp), else a timeout. */
function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
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
  // The chunked side and the bounds start first, so their workers run while this thread does the serial scans.
  const input = state.precision === "float64" ? p64 : p32;
  const pending = control.solveChunked(input, state.precision, state.strategy);
  const implementation = implementationOf(state.precision, state.strategy);
  const bounding = control.solveBounds
    ? control.solveBounds(p64, implementation)
    : Promise.resolve().then(() => outputErrorBounds(p64, implementation));
  // Awaited below; a failure before then must not go unhandled.
  pending.catch(() => {});
  bounding.catch(() => {});
  control.onPhase?.("reference");
  const reference = await serialTables<Float64Array>(p64, rows, cols, step);
  await step();
  control.onPhase?.("serial32");
  const serial32 = await serialTables<Float32Array>(p32, rows, cols, step);
  const serialMillis = reference.millis + serial32.millis;
  await step();
  control.onPhase?.("chunked");
  const [answer, assumed] = await Promise.all([pending, bounding]);
  if (control.isStale()) throw new SupersededError();
  // The engine ran another strategy than asked (its backend cannot run that one): its own bound.
  const ran = implementationOf(state.precision, answer.strategy);
  const bound =
    ran.algorithm === implementation.algorithm
      ? assumed
      : await (control.solveBounds ? control.solveBounds(p64, ran) : outputErrorBounds(p64, ran));
  const chunked = await paddedTables(answer.outputs, rows, cols, step);
  return {
    reference: reference.tables,
    chunked,
    serial32: serial32.tables,
    bound: await paddedTables(bound, rows, cols, step),
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
  // Start in a task of its own: the edit that asked for this run (a key press, a release of the
  // pointer) has its own rendering to finish first.
  const step = async () => {
    await (control.yieldToPage ?? nextTask)();
    if (control.isStale()) throw new SupersededError();
  };
  await step();
  const { p64, p32 } = await problemsFor(state, rows, step);
  const lengths = rows.map((row) => row.length);
  const cols = paddedWidth(p64);
  const { answer, serialMillis, ...tables } = await solveTables(state, p64, p32, cols, control);
  const precision = state.precision === "float64" ? "float64" : "float32";
  const errors = new ErrorAccumulator({ rows: rows.length, cols, lengths, ...tables, precision });
  // A slice of about SUMMARY_SLICE cells per task.
  const slice = Math.max(1, Math.floor(SUMMARY_SLICE / Math.max(1, cols)));
  control.onPhase?.("summary");
  for (const name of errors.outputs) {
    for (let r = 0; r < rows.length; r += slice) {
      await (control.yieldToPage ?? nextTask)();
      if (control.isStale()) throw new SupersededError();
      errors.add(name, r, Math.min(rows.length, r + slice));
    }
  }
  const summary = errors.summary();
  const ran: RanWith = {
    precision: state.precision,
    backend: answer.backend,
    strategy: answer.strategy,
    chunkSize: state.chunkSize,
    millis: answer.millis,
    serialMillis,
  };
  return { kind: p64.kind, rows: rows.length, cols, lengths, ...tables, summary, ran, input: state };
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
