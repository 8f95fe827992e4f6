import {
  allowingNonFinite,
  discountPowers,
  type FloatArray,
  outputErrorBounds,
  padRight,
  type ScanOutputs,
  type ScanProblem,
  tdResiduals,
  tokenLevelRewards,
} from "../../core";
import type { EngineRun } from "../../engine/client";

/**
 * Everything the player draws, in one place and in original time `[B, T]` (row-major), taken from
 * the engine's run: its local scans and carries are used verbatim, never recomputed. The only
 * arithmetic done here is the replay of slime's carry step, `fl32(local + fl32(s_c·d^(k+1)))`,
 * which must (and, in the unit tests, does) give the engine's outputs bit for bit.
 */
export interface Replay {
  kind: ScanProblem["kind"];
  rows: number;
  /** Columns of the scanned batch: T, or max L for a ragged REINFORCE++ batch. */
  cols: number;
  /** Each row's own length (T for rectangular problems). */
  lengths: number[];
  chunkSize: number;
  nChunks: number;
  pad: number;
  /** The scan's discount as the reference holds it (float64): γ, or γλ for GAE. */
  discount: number;
  /** Row 0 of the Toeplitz kernel, `d^k`, and the carry powers `d^(k+1)`: core's float32 tables. */
  kernelRow: Float32Array;
  carryPowers: Float32Array;
  /** M[l][k] at l·C + k where torch's M is not Toeplitz (its scalar loop's entries; usually none). */
  kernelPatches?: ReadonlyMap<number, number>;
  /** What the scan ran over, float32: rewards, TD residuals, or padded token rewards. */
  scanned: Float32Array;
  /** The same sequence as the float64 reference computes it (the serial loop's input). */
  scanned64: Float64Array;
  /** Engine intermediates in slime's reversed time: `[B, nChunks, C]` and `[B, nChunks]`. */
  localScans: Float32Array;
  carriesIn: Float32Array;
  /** The carry step replayed from the engine's numbers. */
  combined: Float32Array;
  /** The engine's scan output (returns, advantages); 0 past a ragged row's end. */
  engineOut: Float32Array;
  /** float64 serial reference of the same output; 0 past a ragged row's end. */
  serial: Float64Array;
  /** Per-element error bound of the float32 chunked scan against the serial reference. */
  bound: Float64Array;
  gae?: GaeExtras;
  reinforce?: ReinforceExtras;
  backend: string;
  millis: number;
}

export interface GaeExtras {
  gamma: number;
  lambd: number;
  rewards: Float32Array;
  values: Float32Array;
  /** The engine's `returns = advantages + values`. */
  returns: Float32Array;
  serialReturns: Float64Array;
  returnsBound: Float64Array;
}

export interface ReinforceExtras {
  gamma: number;
  klCoef: number;
  /** Padded `[B, max L]` like the scan: KL, loss mask (0/1), and `−β·kl·mask` before the outcome. */
  kl: Float32Array;
  mask: Float32Array;
  penalty: Float32Array;
  outcomes: number[];
  /** Token index of each row's last unmasked token, where the outcome lands. */
  lastUnmasked: number[];
}

/** Index of reversed position `i` of row `b` in `[B, nChunks, C]`. */
export function localIndex(r: Pick<Replay, "nChunks" | "chunkSize">, b: number, i: number): number {
  return b * r.nChunks * r.chunkSize + i;
}

/** The token t of reversed position i (negative inside the chunk padding, before t = 0). */
export function tokenOf(r: Pick<Replay, "cols">, i: number): number {
  return r.cols - 1 - i;
}

export function reversedOf(r: Pick<Replay, "cols">, t: number): number {
  return r.cols - 1 - t;
}

/**
 * Builds the replay of a chunked engine run. `problem` holds the inputs as the reference sees them
 * (float64 arrays of float32 values); `serial` is core's float64 serial solution of it.
 */
export function buildReplay(problem: ScanProblem, run: EngineRun, serial: ScanOutputs<FloatArray>): Replay {
  // A problem that opts into NaN and ±Inf (the playground's) has its token rewards and TD residuals
  // formed under the same opt-in, or core would refuse the very inputs the engine just ran.
  if (problem.allowNonFinite) return allowingNonFinite(() => replayChecked(problem, run, serial));
  return replayChecked(problem, run, serial);
}

function replayChecked(problem: ScanProblem, run: EngineRun, serial: ScanOutputs<FloatArray>): Replay {
  const { chunkSize, nChunks, pad } = run.trace;
  const bounds = outputErrorBounds(problem, { precision: "float32", algorithm: "chunked" });
  const base = { chunkSize, nChunks, pad, backend: run.backend, millis: run.millis };
  const withTables = (discount: number) => {
    const tables = discountPowers(discount, chunkSize, "float32");
    const kernelPatches = new Map((tables.kernelPatches ?? []).map((p) => [p.row * chunkSize + p.col, p.value]));
    return {
      discount,
      kernelRow: tables.kernelRow as Float32Array,
      carryPowers: tables.carryPowers as Float32Array,
      kernelPatches,
    };
  };

  if (problem.kind === "discounted") {
    const { rows, cols, data } = problem.rewards;
    const r = expect(run.outputs, "discounted");
    const s = expect(serial, "discounted");
    const bound = expect(bounds, "discounted");
    return finish({
      ...base,
      ...withTables(problem.discount),
      kind: "discounted",
      rows,
      cols,
      lengths: new Array(rows).fill(cols),
      scanned: Float32Array.from(data),
      scanned64: Float64Array.from(data),
      engineOut: Float32Array.from(r.returns),
      serial: Float64Array.from(s.returns),
      bound: Float64Array.from(bound.returns),
      trace: run.trace,
    });
  }
  if (problem.kind === "gae") {
    const { rows, cols } = problem.rewards;
    const { gamma, lambd } = problem;
    const rewards = Float32Array.from(problem.rewards.data);
    const values = Float32Array.from(problem.values.data);
    // The residuals the float32 scan ran over, by core's float32 formula (the engine computes the
    // same on the device), and the float64 ones the reference scans.
    const deltas = tdResiduals({ rows, cols, data: rewards }, { rows, cols, data: values }, gamma).data;
    const deltas64 = tdResiduals(toFloat64(problem.rewards), toFloat64(problem.values), gamma).data;
    const r = expect(run.outputs, "gae");
    const s = expect(serial, "gae");
    const bound = expect(bounds, "gae");
    return finish({
      ...base,
      ...withTables(gamma * lambd),
      kind: "gae",
      rows,
      cols,
      lengths: new Array(rows).fill(cols),
      scanned: deltas,
      scanned64: Float64Array.from(deltas64),
      engineOut: Float32Array.from(r.advantages),
      serial: Float64Array.from(s.advantages),
      bound: Float64Array.from(bound.advantages),
      trace: run.trace,
      gae: {
        gamma,
        lambd,
        rewards,
        values,
        returns: Float32Array.from(r.returns),
        serialReturns: Float64Array.from(s.returns),
        returnsBound: Float64Array.from(bound.returns),
      },
    });
  }
  const { batch, klCoef, gamma } = problem;
  const r = expect(run.outputs, "reinforce_pp");
  const s = expect(serial, "reinforce_pp");
  const bound = expect(bounds, "reinforce_pp");
  const lengths = batch.kl.map((row) => row.length);
  const tokens = padRight(r.tokenLevelRewards, new Float32Array(0));
  const { rows, cols } = tokens;
  const tokens64 = padRight(
    tokenLevelRewards({ ...batch, kl: batch.kl.map((row) => Float64Array.from(row)) }, klCoef),
    new Float64Array(0),
  );
  const kl = padRight(
    batch.kl.map((row) => Float32Array.from(row)),
    new Float32Array(0),
  ).data;
  const mask = padRight(
    batch.lossMasks.map((m) => Float32Array.from(m)),
    new Float32Array(0),
  ).data;
  // −β·(kl·m), rounded as core's token rewards do it, before the outcome is added.
  const coef = Math.fround(-klCoef);
  const penalty = new Float32Array(rows * cols);
  for (let j = 0; j < penalty.length; j++) penalty[j] = Math.fround(coef * Math.fround(kl[j] * mask[j]));
  const lastUnmasked = batch.lossMasks.map((m) => lastIndexOf(m, 1));
  return finish({
    ...base,
    ...withTables(gamma),
    kind: "reinforce_pp",
    rows,
    cols,
    lengths,
    scanned: tokens.data,
    scanned64: tokens64.data,
    engineOut: padRight(r.returns, new Float32Array(0)).data,
    serial: padRight(
      s.returns.map((row) => Float64Array.from(row)),
      new Float64Array(0),
    ).data,
    bound: padRight(
      bound.returns.map((row) => Float64Array.from(row)),
      new Float64Array(0),
    ).data,
    trace: run.trace,
    reinforce: {
      gamma,
      klCoef,
      kl,
      mask,
      penalty,
      outcomes: Array.from(batch.rewards, Math.fround),
      lastUnmasked,
    },
  });
}

type Draft = Omit<Replay, "localScans" | "carriesIn" | "combined"> & { trace: EngineRun["trace"] };

function finish(draft: Draft): Replay {
  const { trace, ...rest } = draft;
  const { rows, cols, nChunks, chunkSize } = rest;
  if (trace.localScans.length !== rows * nChunks * chunkSize || trace.carriesIn.length !== rows * nChunks) {
    throw new Error(
      `the engine's trace has ${trace.localScans.length} local values and ${trace.carriesIn.length} carries; expected ${rows * nChunks * chunkSize} and ${rows * nChunks} for ${rows} rows of ${nChunks} chunks of ${chunkSize}`,
    );
  }
  const replay: Replay = {
    ...rest,
    localScans: trace.localScans,
    carriesIn: trace.carriesIn,
    combined: new Float32Array(0),
  };
  const combined = new Float32Array(rows * cols);
  for (let b = 0; b < rows; b++) {
    for (let i = 0; i < cols; i++) combined[b * cols + tokenOf(replay, i)] = carriedValue(replay, b, i);
  }
  replay.combined = combined;
  return replay;
}

/** slime's carry step at reversed position i: `fl32(local + fl32(s_c·d^(k+1)))`. */
export function carriedValue(r: Replay, b: number, i: number): number {
  const c = Math.floor(i / r.chunkSize);
  const k = i - c * r.chunkSize;
  const local = r.localScans[localIndex(r, b, i)];
  return Math.fround(local + carryTerm(r, b, c, k));
}

/** `fl32(s_c·d^(k+1))`: what the carry s_c adds at position k of chunk c. */
export function carryTerm(r: Replay, b: number, c: number, k: number): number {
  return Math.fround(r.carriesIn[b * r.nChunks + c] * r.carryPowers[k]);
}

function expect<K extends ScanOutputs["kind"], O extends { kind: string }>(
  outputs: O,
  kind: K,
): Extract<O, { kind: K }> {
  if (outputs.kind !== kind) throw new Error(`expected ${kind} outputs, got ${outputs.kind}`);
  return outputs as Extract<O, { kind: K }>;
}

function toFloat64(x: { rows: number; cols: number; data: ArrayLike<number> }) {
  return { rows: x.rows, cols: x.cols, data: Float64Array.from(x.data) };
}

function lastIndexOf(values: ArrayLike<number>, target: number): number {
  for (let i = values.length - 1; i >= 0; i--) if (values[i] === target) return i;
  return -1;
}

/** M[l][k] (l ≤ k) as the scan multiplied with it: row 0's d^(k−l), or torch's own entry there. */
export function kernelEntry(r: Replay, l: number, k: number): number {
  return r.kernelPatches?.get(l * r.chunkSize + k) ?? r.kernelRow[k - l];
}
