/**
 * The dedicated module worker that owns tfjs. The main thread talks to it only through
 * `EngineClient` (client.ts), over comlink; typed arrays are transferred both ways, never copied.
 */
import * as Comlink from "comlink";
import { type ConventionProblem, ScanInputError, type ScanProblem } from "../core";
import type { BackendReport, BackendRequest } from "../names/backends";
import type { Strategy } from "../names/strategies";
import { currentBackend, initBackend, watchDeviceLoss, webgpuDevice } from "./backends";
import { type ConventionRun, runConventionProblem } from "./conventions/runConventionProblem";
import { type InputsSent, withInputs } from "./keptInputs";
import { type EngineResult, type RunOptions, runProblem } from "./runProblem";
import { REFILL_AFTER_MS, WarmTables } from "./warmTables";

/** An error thrown for one problem, as plain data that survives the worker boundary. */
export interface ProblemFailure {
  name: string;
  message: string;
  /** Set for a ScanInputError: the reference's exception type (`AssertionError`, `ValueError`). */
  referenceType?: string;
}

/** One problem of a run, finished: its index in the request, and the run or the error. */
export type ProblemResult =
  | { index: number; ok: true; run: EngineResult }
  | { index: number; ok: false; error: ProblemFailure };

/** One convention problem of a run, finished: its index in the request, and the run or the error. */
export type ConventionProblemResult =
  | { index: number; ok: true; run: ConventionRun }
  | { index: number; ok: false; error: ProblemFailure };

export interface RunEnd {
  /** How many problems were solved before the run ended. */
  completed: number;
  /** True when a newer run started and this one stopped early. */
  superseded: boolean;
  /** `tf.getBackend()` at the end of the run. */
  backend: string;
}

/**
 * Faults the client can inject to exercise its recovery (tests and the debug view only): the
 * worker crashes, the WebGPU device is lost, or the next problem never answers, as a hung GPU's
 * readback never resolves while its device stays alive.
 */
export type SimulatedFault = "crash" | "device-lost" | "hang";

export interface EngineWorkerApi {
  /** Brings up a backend (see backends.ts); `onDeviceLost` fires if the WebGPU device is lost later. */
  init(requested: BackendRequest, onDeviceLost: (message: string) => void): Promise<BackendReport>;
  /**
   * Solves problems in order, handing each result to `onResult` (awaited, so results arrive in
   * order and before the returned promise settles). A run with a newer `runId` stops this one.
   * `inputs`: the first problem's input arrays are kept for later runs ("keep"), or every problem
   * runs on the ones kept ("kept": its own arrays are sent empty; keptInputs.ts). `deliver`: each
   * solved problem's run is posted there, its arrays transferred, and `onResult` gets it with empty
   * outputs (the playground worker takes the engine's outputs straight from here).
   */
  runProblems(
    runId: number,
    problems: ScanProblem[],
    strategy: Strategy,
    onResult: (result: ProblemResult) => unknown,
    options?: RunOptions,
    inputs?: InputsSent,
    deliver?: MessagePort,
  ): Promise<RunEnd>;
  /** runProblems for library conventions (slime, OpenRLHF, verl); a newer run of either kind stops it. */
  runConventions(
    runId: number,
    problems: ConventionProblem[],
    strategy: Strategy,
    onResult: (result: ConventionProblemResult) => unknown,
  ): Promise<RunEnd>;
  simulateFault(fault: SimulatedFault): void;
}

let latestRunId = -1;
/** The input arrays of the last run sent with "keep" (EngineClient.runOutputsKept). */
let keptInputs: ScanProblem | null = null;
/** The outputs of the next run, made ahead (host backends read back into them). */
const warm = new WarmTables();
/** Set by the "hang" fault: the next problem waits forever. */
let hangNext = false;

const api: EngineWorkerApi = {
  async init(requested, onDeviceLost) {
    const report = await initBackend(requested);
    watchDeviceLoss((message) => {
      onDeviceLost(message);
    });
    return report;
  },

  runProblems(runId, problems, strategy, onResult, options = {}, inputs, deliver) {
    if (inputs === "keep") keptInputs = problems[0] ?? null;
    const kept = keptInputs;
    const withArrays = (p: ScanProblem) => {
      if (inputs !== "kept") return p;
      if (!kept) throw new Error("the run's inputs were not sent to this worker");
      return withInputs(p, kept);
    };
    warm.begin();
    const solve = (p: ScanProblem) => runProblem(withArrays(p), strategy, options, warm.take);
    const own = (run: EngineResult): EngineResult => {
      const owned = ownArrays(run);
      if (!deliver) return owned;
      deliver.postMessage(owned, buffersOf(owned));
      return { ...owned, outputs: emptyOutputs(owned.outputs), trace: undefined };
    };
    const ran = solveInOrder(runId, problems, solve, own, buffersOf, onResult);
    // The next run's outputs, made a while after this run ends (not beside the page drawing it).
    ran.finally(() => setTimeout(() => warm.refill(), REFILL_AFTER_MS)).catch(() => {});
    return ran;
  },

  runConventions(runId, problems, strategy, onResult) {
    const solve = (p: ConventionProblem) => runConventionProblem(p, strategy);
    return solveInOrder(runId, problems, solve, ownConventionArrays, conventionBuffersOf, onResult);
  },

  simulateFault(fault) {
    if (fault === "hang") {
      hangNext = true;
      return;
    }
    if (fault === "device-lost") {
      const device = webgpuDevice();
      if (!device) throw new Error(`cannot lose a WebGPU device: the backend is ${currentBackend()}`);
      device.destroy();
      return;
    }
    setTimeout(() => {
      throw new Error("simulated worker crash");
    });
  },
};

Comlink.expose(api);

/**
 * Solves problems one by one, handing each result (its arrays transferred) to `onResult`, and
 * stops before the next problem once a newer run has started.
 */
async function solveInOrder<P, Run>(
  runId: number,
  problems: P[],
  solve: (problem: P) => Promise<Run>,
  own: (run: Run) => Run,
  buffers: (run: Run) => Transferable[],
  onResult: (
    result: { index: number; ok: true; run: Run } | { index: number; ok: false; error: ProblemFailure },
  ) => unknown,
): Promise<RunEnd> {
  latestRunId = Math.max(latestRunId, runId);
  let completed = 0;
  for (const [index, problem] of problems.entries()) {
    if (runId !== latestRunId) return { completed, superseded: true, backend: currentBackend() };
    let result: { index: number; ok: true; run: Run } | { index: number; ok: false; error: ProblemFailure };
    if (hangNext) await new Promise<never>(() => {});
    try {
      result = { index, ok: true, run: own(await solve(problem)) };
    } catch (error) {
      result = { index, ok: false, error: failureOf(error) };
    }
    completed++;
    await onResult(Comlink.transfer(result, result.ok ? buffers(result.run) : []));
  }
  return { completed, superseded: false, backend: currentBackend() };
}

function failureOf(error: unknown): ProblemFailure {
  if (error instanceof ScanInputError) {
    return { name: error.name, message: error.message, referenceType: error.referenceType };
  }
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: "Error", message: String(error) };
}

type Floats = Float32Array<ArrayBufferLike>;

/**
 * Every array of the run on a buffer of its own, so transferring it detaches nothing else
 * (a view into wasm memory or a shared buffer is copied first).
 */
function ownArrays(run: EngineResult): EngineResult {
  const own = ownership();
  const o = run.outputs;
  const outputs: EngineResult["outputs"] =
    o.kind === "discounted"
      ? { kind: o.kind, returns: own(o.returns) }
      : o.kind === "gae"
        ? { kind: o.kind, advantages: own(o.advantages), returns: own(o.returns) }
        : { kind: o.kind, returns: o.returns.map(own), tokenLevelRewards: o.tokenLevelRewards.map(own) };
  if (!run.trace) return { ...run, outputs };
  const trace = { ...run.trace, localScans: own(run.trace.localScans), carriesIn: own(run.trace.carriesIn) };
  return { ...run, outputs, trace };
}

/** Outputs of the same kind with no values: what the page gets of a run delivered elsewhere. */
function emptyOutputs(o: EngineResult["outputs"]): EngineResult["outputs"] {
  const none = new Float32Array(0);
  if (o.kind === "discounted") return { kind: o.kind, returns: none };
  if (o.kind === "gae") return { kind: o.kind, advantages: none, returns: none };
  return { kind: o.kind, returns: [], tokenLevelRewards: [] };
}

/** A copier that keeps an array whose buffer is its own and not yet seen, and copies any other. */
function ownership(): <A extends Floats>(a: A) => A {
  const seen = new Set<ArrayBufferLike>();
  return <A extends Floats>(a: A): A => {
    const whole = a.byteOffset === 0 && a.byteLength === a.buffer.byteLength && a.buffer instanceof ArrayBuffer;
    if (whole && !seen.has(a.buffer)) {
      seen.add(a.buffer);
      return a;
    }
    return a.slice() as A;
  };
}

function ownConventionArrays(run: ConventionRun): ConventionRun {
  const own = ownership();
  const r = run.result;
  const result = {
    tokenLevelRewards: r.tokenLevelRewards.map(own),
    returns: r.returns.map(own),
    advantages: r.advantages.map(own),
    rewardIndex: r.rewardIndex,
  };
  return { ...run, result };
}

function conventionBuffersOf(run: ConventionRun): Transferable[] {
  const r = run.result;
  const arrays: Floats[] = [...r.tokenLevelRewards, ...r.returns, ...r.advantages];
  return [...new Set(arrays.map((a) => a.buffer as ArrayBuffer))];
}

function buffersOf(run: EngineResult): Transferable[] {
  const o = run.outputs;
  const arrays: Floats[] =
    o.kind === "discounted"
      ? [o.returns]
      : o.kind === "gae"
        ? [o.advantages, o.returns]
        : [...o.returns, ...o.tokenLevelRewards];
  if (run.trace) arrays.push(run.trace.localScans, run.trace.carriesIn);
  return [...new Set(arrays.map((a) => a.buffer as ArrayBuffer))];
}
