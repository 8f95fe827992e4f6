import {
  type FloatArray,
  type Implementation,
  outputErrorBounds,
  type ScanOutputs,
  type ScanProblem,
  solve,
} from "../../../core";
import { SupersededError } from "../../../engine/client";
import { stateToProblem } from "../../../io/playgroundProblem";
import type { PlaygroundPrecision, PlaygroundRow, PlaygroundState } from "../../../io/playgroundState";
import { STRATEGY_ALGORITHM, type Strategy } from "../../../names/strategies";
import { ErrorAccumulator, type ErrorSummary } from "./errorSummary";
import { type OutputTables, outputTables, paddedSteps } from "./outputTables";
import { problemSteps } from "./problemCache";
import { paddedWidth, rowLength, rowProblem } from "./rowProblem";
import { answer, finishNow, finishSliced, type Sliced } from "./slices";

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
  /**
   * Work on past pause points until this long has passed since the last yield (default 0: yield at
   * every one). The run's slices are small (a few rows), and a yield at each let every other task
   * and frame in between: the summary of a 16 × 8192 result took 6–19 ms for 2 ms of work.
   */
  budgetMs?: number;
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

/** Cells summarised per slice: a few ms each. */
const SUMMARY_SLICE = 2 ** 13;

/**
 * Cells of serial scan per slice (whole rows, at least one): about 10 ms, so the page's own slices
 * stay short even when the engine's threads hold the cores and stretch each one 2–3× in wall time.
 */
const SERIAL_SLICE = 2 ** 14;

/** The chunked side and the bounds, wherever they are computed: here (a value) or in a worker (a promise). */
export interface Solvers {
  chunked(
    problem: ScanProblem,
    precision: PlaygroundPrecision,
    strategy: Strategy,
  ): ChunkedAnswer | Promise<ChunkedAnswer>;
  bounds(
    problem: ScanProblem,
    implementation: Implementation,
  ): ScanOutputs<Float64Array> | Promise<ScanOutputs<Float64Array>>;
}

/**
 * The serial scan of every row as padded `[rows, cols]` tables, a few rows per slice (a serial
 * scan is row by row, so each row's bits are the whole batch's). Bad input is thrown by a scan of
 * the whole batch, so that the error names the batch's row, not the slice's.
 */
function* serialTables<A extends FloatArray>(
  problem: ScanProblem,
  rows: number,
  cols: number,
): Sliced<{ tables: OutputTables<A>; millis: number }> {
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
      yield;
    }
  }
  tables ??= outputTables(solve(problem, "serial").outputs as ScanOutputs<A>, rows, cols);
  return { tables, millis };
}

/** Both serial scans of a batch: they depend on its inputs and discounts, not on C, the strategy or the precision. */
interface SerialScans {
  reference: OutputTables<Float64Array>;
  serial32: OutputTables<Float32Array>;
  millis: number;
}

/**
 * The serial scans and bounds of the last few runs of a rows array, so that a chunk-size step,
 * a strategy or precision switch and the engine's result after core's preview reuse them (the
 * float64 reference is run once per input). Tables are never written after they are made.
 */
const KEEP = 2;
const serialCache = new WeakMap<PlaygroundRow[], { key: string; scans: SerialScans }[]>();
const boundCache = new WeakMap<PlaygroundRow[], { key: string; bound: OutputTables<Float64Array> }[]>();

function remember<T extends { key: string }>(cache: WeakMap<PlaygroundRow[], T[]>, rows: PlaygroundRow[], entry: T) {
  cache.set(rows, [entry, ...(cache.get(rows) ?? []).filter((e) => e.key !== entry.key)].slice(0, KEEP));
}

function inputsKey(state: PlaygroundState): string {
  return JSON.stringify([state.estimator, state.gamma, state.lambd, state.klCoef]);
}

function* serialScans(
  state: PlaygroundState,
  rows: PlaygroundRow[],
  problems: { p64: ScanProblem; p32: ScanProblem },
  cols: number,
  onPhase: (phase: RunPhase) => void,
): Sliced<SerialScans> {
  const key = inputsKey(state);
  const kept = serialCache.get(rows)?.find((e) => e.key === key);
  if (kept) return kept.scans;
  const { p64, p32 } = problems;
  const count = rows.length;
  onPhase("reference");
  const reference = yield* serialTables<Float64Array>(p64, count, cols);
  yield;
  onPhase("serial32");
  const serial32 = yield* serialTables<Float32Array>(p32, count, cols);
  const scans = { reference: reference.tables, serial32: serial32.tables, millis: reference.millis + serial32.millis };
  remember(serialCache, rows, { key, scans });
  return scans;
}

type Bounds = ScanOutputs<Float64Array> | Promise<ScanOutputs<Float64Array>>;

function boundKey(state: PlaygroundState, implementation: Implementation): string {
  return JSON.stringify([inputsKey(state), state.chunkSize, implementation.precision, implementation.algorithm]);
}

/** The padded bound tables: kept ones, or those of `request()` (asked for only when none are kept). */
function* boundTables(
  state: PlaygroundState,
  rows: PlaygroundRow[],
  implementation: Implementation,
  cols: number,
  request: () => Bounds,
): Sliced<OutputTables<Float64Array>> {
  const key = boundKey(state, implementation);
  const kept = boundCache.get(rows)?.find((e) => e.key === key);
  if (kept) return kept.bound;
  const bound = yield* paddedSteps(yield* answer(request()), rows.length, cols);
  remember(boundCache, rows, { key, bound });
  return bound;
}

/**
 * The whole batch as a sliced computation: the chunked side and the bounds are asked for first
 * (a worker's run alongside), then the serial scans (kept from an earlier run of the same inputs
 * when there is one), the chunked tables and the summary. Bad input throws core's ScanInputError
 * (naming row and token).
 */
export function* playgroundSteps(
  state: PlaygroundState,
  rows: PlaygroundRow[],
  solvers: Solvers,
  onPhase: (phase: RunPhase) => void = () => {},
): Sliced<PlaygroundResult> {
  const { p64, p32 } = yield* problemSteps(state, rows);
  const lengths = rows.map((row) => row.length);
  const cols = paddedWidth(p64);
  // The chunked side and the bounds start first, so their workers run while this thread does the serial scans.
  const pending = solvers.chunked(state.precision === "float64" ? p64 : p32, state.precision, state.strategy);
  const implementation = implementationOf(state.precision, state.strategy);
  const kept = boundCache.get(rows)?.some((e) => e.key === boundKey(state, implementation));
  const bounding = kept ? null : solvers.bounds(p64, implementation);
  // Awaited below; a failure before then must not go unhandled.
  for (const p of [pending, bounding]) if (p instanceof Promise) p.catch(() => {});
  const serial = yield* serialScans(state, rows, { p64, p32 }, cols, onPhase);
  yield;
  onPhase("chunked");
  const chunkedAnswer = yield* answer(pending);
  // The engine ran another strategy than asked (its backend cannot run that one): its own bound.
  const ran = implementationOf(state.precision, chunkedAnswer.strategy);
  const bound =
    ran.algorithm === implementation.algorithm && bounding !== null
      ? yield* boundTables(state, rows, ran, cols, () => bounding)
      : yield* boundTables(state, rows, ran, cols, () => solvers.bounds(p64, ran));
  const chunked = yield* paddedSteps(chunkedAnswer.outputs, rows.length, cols);
  const tables = { reference: serial.reference, chunked, serial32: serial.serial32, bound };
  const precision = state.precision === "float64" ? "float64" : "float32";
  const errors = new ErrorAccumulator({ rows: rows.length, cols, lengths, ...tables, precision });
  const slice = Math.max(1, Math.floor(SUMMARY_SLICE / Math.max(1, cols)));
  onPhase("summary");
  for (const name of errors.outputs) {
    for (let r = 0; r < rows.length; r += slice) {
      yield;
      errors.add(name, r, Math.min(rows.length, r + slice));
    }
  }
  const ranWith: RanWith = {
    precision: state.precision,
    backend: chunkedAnswer.backend,
    strategy: chunkedAnswer.strategy,
    chunkSize: state.chunkSize,
    millis: chunkedAnswer.millis,
    serialMillis: serial.millis,
  };
  return {
    kind: p64.kind,
    rows: rows.length,
    cols,
    lengths,
    ...tables,
    summary: errors.summary(),
    ran: ranWith,
    input: state,
  };
}

/** Yields to the page: scheduler.yield where the browser has it (no 4 ms clamp), else a timeout. */
function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * The whole batch, a slice per task: tables, summary and what ran. Its first slice runs now, so
 * that the engine's request goes out in the task that asked for the run (when the inputs are
 * built already); it stops with SupersededError at the first pause after a newer request exists.
 */
export function runPlayground(
  state: PlaygroundState,
  rows: PlaygroundRow[],
  control: RunControl,
): Promise<PlaygroundResult> {
  const budget = control.budgetMs ?? 0;
  let since = performance.now();
  const pause = async () => {
    if (budget > 0 && performance.now() - since < budget && !control.isStale()) return;
    await (control.yieldToPage ?? nextTask)();
    since = performance.now();
    if (control.isStale()) throw new SupersededError();
  };
  const solvers: Solvers = {
    chunked: control.solveChunked,
    bounds: control.solveBounds ?? ((problem, implementation) => outputErrorBounds(problem, implementation)),
  };
  return finishSliced(playgroundSteps(state, rows, solvers, control.onPhase), pause);
}

/** What core's chunked scan on this thread is called on screen, by the precision asked for. */
export const CORE_LABEL: Record<PlaygroundPrecision, string> = {
  // The engine's answer replaces it: until then core's emulation of the engine's float32 chunked scan is shown.
  "float32-engine": "core float32 emulation",
  // slime-exact multiplies with torch's own CPU float32 powers (core/torchPow), not fl32(γ)^k: say so.
  "slime-exact": "core float32 (slime's order, torch CPU float32 powers)",
  float64: "core float64",
};

/** Core's chunked scan and bounds, here and now. */
const coreHere: Solvers = {
  chunked(problem, precision) {
    const start = performance.now();
    const { outputs } = solve(problem, "chunked");
    return { outputs, backend: CORE_LABEL[precision], strategy: "chunked", millis: performance.now() - start };
  },
  bounds: (problem, implementation) => outputErrorBounds(problem, implementation),
};

/**
 * The whole batch computed by core in this task, for a teaching-size batch (PREVIEW_CELLS): for
 * the engine's precision it is core's float32 emulation of the chunked scan, shown until the
 * engine answers; for slime-exact and float64 it is the result itself.
 */
export function runPlaygroundNow(state: PlaygroundState, rows: PlaygroundRow[]): PlaygroundResult {
  return finishNow(playgroundSteps(state, rows, coreHere));
}

/**
 * Batches up to this many tokens are computed here at once, in the frame of the edit: core's
 * chunked emulation costs about C multiply-adds per token (0.5–2 ms at 4 × 300, C = 128).
 */
export const PREVIEW_CELLS = 2 ** 12;

/** Whether a batch is small enough for runPlaygroundNow. */
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
