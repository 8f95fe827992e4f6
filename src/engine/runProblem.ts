import * as tf from "@tensorflow/tfjs-core";
import {
  type ChunkLayout,
  type ChunkTrace,
  padRight,
  ScanInputError,
  type ScanOutputs,
  type ScanProblem,
  trimRow,
  type Zeros,
} from "../core";
import { runsOn, STRATEGIES, STRATEGY_BACKEND, type Strategy, strategiesFor } from "../names/strategies";
import { activeCapacity } from "./backendCapacity";
import { discountedScan, type ScanResultTensors, scanLayout } from "./discountedScan";
import { checkEngineLimits } from "./engineLimits";
import { gaeScan } from "./gaeScan";
import { InputUploads } from "./inputUploads";
import { checkEngineOutputs } from "./outputCheck";
import { type PreparedProblem, prepareProblem, scanShape } from "./prepareProblem";
import { readBack } from "./readBack";

export interface EngineRun {
  outputs: ScanOutputs<Float32Array>;
  trace: ChunkTrace<Float32Array>;
  /** tf.getBackend() at the time of the run: the backend that really ran. */
  backend: string;
  /** Wall time of the run, validation and reading the results back included. */
  millis: number;
  /** The strategy that ran (the client replaces one the backend cannot run before it asks). */
  strategy: Strategy;
}

/** A run whose caller did not ask for the chunk intermediates (a benchmark). */
export type EngineResult = Omit<EngineRun, "trace"> & { trace?: ChunkTrace<Float32Array> };

export interface RunOptions {
  /**
   * Whether to return the trace (each chunk's local scan and carry). Default true: the player and
   * the conformance trace read it; a benchmark passes false and times only the outputs.
   */
  trace?: boolean;
}

type Solved = Pick<EngineResult, "outputs" | "trace">;

/**
 * Solves a problem on the active TensorFlow.js backend in float32 with the chosen strategy.
 * Bad input fails with core's ScanInputError, and a problem beyond what the backend can hold with
 * an EngineLimitError, both before any tensor exists; results that cannot be right (a backend that
 * failed silently) fail with an EngineOutputError instead of being returned. The backend is the
 * caller's choice (tf.setBackend); this never picks or initialises one, and every tensor it
 * creates is disposed before it returns or throws.
 */
export async function runProblem(
  problem: ScanProblem,
  strategy: Strategy,
  options?: RunOptions & { trace?: true },
  zeros?: Zeros,
): Promise<EngineRun>;
export async function runProblem(
  problem: ScanProblem,
  strategy: Strategy,
  options: RunOptions,
  zeros?: Zeros,
): Promise<EngineResult>;
export async function runProblem(
  problem: ScanProblem,
  strategy: Strategy,
  options: RunOptions = {},
  /** Where the outputs read back to the host go (warmTables.ts): fresh arrays by default. */
  zeros?: Zeros,
): Promise<EngineResult> {
  const start = performance.now();
  if (!STRATEGIES.includes(strategy)) {
    throw new ScanInputError(`strategy must be one of ${STRATEGIES.join(", ")}, got ${String(strategy)}`);
  }
  const prepared = prepareProblem(problem);
  const backend = activeBackend();
  if (!runsOn(strategy, backend)) {
    throw new ScanInputError(
      `the ${strategy} strategy runs only on ${STRATEGY_BACKEND[strategy]}, and the engine runs on ${backend} here; ` +
        `choose one of ${strategiesFor(backend).join(", ")}`,
    );
  }
  const trace = options.trace ?? true;
  checkEngineLimits(scanShape(prepared), strategy, activeCapacity(backend), trace);
  const solved = await solvePrepared(prepared, strategy, trace, zeros);
  checkEngineOutputs(prepared, strategy, backend, solved);
  return { ...solved, backend, strategy, millis: performance.now() - start };
}

/**
 * The active backend's name. Throws rather than letting the first op quietly initialise the
 * highest-priority backend: a run must report, and time, the backend the caller asked for.
 */
export function activeBackend(): string {
  const name = tf.getBackend();
  if (!name || tf.engine().registry[name] === undefined) {
    throw new Error(
      `no TensorFlow.js backend is ready${name ? ` ('${name}' did not initialise)` : ""}: await tf.setBackend(...) first`,
    );
  }
  return name;
}

async function solvePrepared(
  p: PreparedProblem,
  strategy: Strategy,
  trace: boolean,
  zeros: Zeros | undefined,
): Promise<Solved> {
  const options = { trace };
  switch (p.kind) {
    case "discounted": {
      const { rows, cols, data } = p.rewards;
      const layout = scanLayout(cols, p.chunkSize, strategy);
      if (rows * cols === 0)
        return { outputs: { kind: "discounted", returns: new Float32Array(0) }, ...noTrace(layout, trace) };
      const a = await withInputs((inputs) =>
        readBack(
          tf.tidy(() => discountedScan(inputs.tensor2d(data, rows, cols), p.discount, p.chunkSize, strategy, options)),
          zeros,
        ),
      );
      return { outputs: { kind: "discounted", returns: a.returns }, ...traceOf(layout, a) };
    }
    case "gae": {
      const { rows, cols } = p.rewards;
      const layout = scanLayout(cols, p.chunkSize, strategy);
      if (rows * cols === 0) {
        const empty = new Float32Array(0);
        return { outputs: { kind: "gae", advantages: empty, returns: empty.slice() }, ...noTrace(layout, trace) };
      }
      const a = await withInputs((inputs) =>
        readBack(
          tf.tidy(() => {
            const rewards = inputs.tensor2d(p.rewards.data, rows, cols);
            const values = inputs.tensor2d(p.values.data, rows, cols);
            const gae = gaeScan(rewards, values, p.gamma, p.discount, p.chunkSize, strategy, options);
            return { advantages: gae.advantages, returns: gae.returns, ...traceTensors(gae.scan) };
          }),
          zeros,
        ),
      );
      return { outputs: { kind: "gae", advantages: a.advantages, returns: a.returns }, ...traceOf(layout, a) };
    }
    case "reinforce_pp": {
      // slime's vectorised REINFORCE++ (§d): ONE scan of the right-padded batch, rows trimmed
      // back, so chunk boundaries follow the longest sequence exactly as in slime.
      const { rows, cols } = p;
      const layout = scanLayout(cols, p.chunkSize, strategy);
      const tokenLevelRewards = p.tokens;
      if (rows * cols === 0)
        return { outputs: { kind: "reinforce_pp", returns: [], tokenLevelRewards }, ...noTrace(layout, trace) };
      const { data } = padRight(tokenLevelRewards, new Float32Array(0));
      const a = await withInputs((inputs) =>
        readBack(
          tf.tidy(() => discountedScan(inputs.tensor2d(data, rows, cols), p.gamma, p.chunkSize, strategy, options)),
          zeros,
        ),
      );
      const scanned = { rows, cols, data: a.returns };
      const returns = tokenLevelRewards.map((tok, b) => trimRow(scanned, b, tok.length));
      return { outputs: { kind: "reinforce_pp", returns, tokenLevelRewards }, ...traceOf(layout, a) };
    }
  }
}

/** Runs `read` with the run's input uploads, handing their device buffers back once it has read the results. */
async function withInputs<T>(read: (inputs: InputUploads) => Promise<T>): Promise<T> {
  const inputs = new InputUploads();
  let succeeded = false;
  try {
    const result = await read(inputs);
    succeeded = true;
    return result;
  } finally {
    inputs.release(succeeded);
  }
}

/** The scan's trace tensors, when it kept them (only when the caller asked). */
function traceTensors(scan: ScanResultTensors): Partial<Record<"localScans" | "carriesIn", tf.Tensor>> {
  return scan.localScans && scan.carriesIn ? { localScans: scan.localScans, carriesIn: scan.carriesIn } : {};
}

function traceOf(
  layout: ChunkLayout,
  a: { localScans?: Float32Array; carriesIn?: Float32Array },
): { trace?: ChunkTrace<Float32Array> } {
  if (!a.localScans || !a.carriesIn) return {};
  return { trace: { ...layout, localScans: a.localScans, carriesIn: a.carriesIn } };
}

/** An empty batch's trace: the layout is still the one the scan would use, with no values. */
function noTrace(layout: ChunkLayout, trace: boolean): { trace?: ChunkTrace<Float32Array> } {
  return trace ? { trace: { ...layout, localScans: new Float32Array(0), carriesIn: new Float32Array(0) } } : {};
}
