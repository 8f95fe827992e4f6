import type { ChunkTrace, ScanOutputs } from "../core";
import type { Strategy } from "../names/strategies";
import { scanLayout } from "./discountedScan";
import { EngineOutputError } from "./engineErrors";
import type { PreparedProblem } from "./prepareProblem";

/**
 * How far a returned value may break its own recurrence, `G_t − (x_t + d·G_{t+1})`, as a
 * fraction of `A_t = |x_t| + |d|·A_{t+1}`, the magnitude that flows into G_t. Any correct float32
 * scan stays far inside: within a chunk G_t and G_{t+1} are two dot products of at most K =
 * min(C, T) ≤ 2^14 terms (no backend holds a larger kernel), each off by at most K·2^-24·A_t; at a
 * chunk boundary the carries add at most (n + 520)·2^-24·A_t more (n ≤ 1024 chunks per level).
 * That is under 2^-8.3·A_t; 2^-6 leaves a factor 5. A wrong result (zeros, garbage, a stale
 * buffer) is off by about A_t itself. This catches a silent failure; it does not judge accuracy.
 */
export const RESIDUAL_FRACTION = 2 ** -6;

/**
 * Absolute slack for values near the float32 subnormal range, which a GPU may flush to zero
 * (each flush is off by less than 2^-126, along at most 2^15 operations).
 */
export const RESIDUAL_FLOOR = 2 ** -100;

/**
 * Below this, no float32 value on the way (a partial sum, a carry, a product) can overflow: they are
 * all at most A_t, times (1 + 2^-24)^(2^15) < 2 for rounding. Beyond it Inf and NaN may be genuine
 * (slime's own float32 scan overflows there too), so the values of that row are not checked.
 */
export const OVERFLOW_GUARD = 2 ** 124;

/** A run's outputs, and its trace when the caller asked for one. */
type Run = { outputs: ScanOutputs<Float32Array>; trace?: ChunkTrace<Float32Array> };

/**
 * Checks what the backend returned before anything judges it: every output has the size the
 * problem implies, and every value satisfies its own recurrence within float32 rounding, for every
 * row and token. A backend that fails silently (an allocation beyond its memory reads as zeros)
 * is reported with the output, row and token, as an EngineOutputError, instead of as numbers.
 */
// The per-token loops of a row are functions of their own, not inner loops (see README, "Inner loops").

/**
 * δ_t = (r_t + γ·V_{t+1}) − V_t with V_T = 0, in float64, and the magnitudes of its terms: the
 * device's float32 δ is within a few roundings of these.
 */
function residualsOfRow(
  r: Float32Array,
  v: Float32Array,
  gamma: number,
  deltas: Float64Array,
  magnitudes: Float64Array,
): void {
  const cols = r.length;
  for (let t = 0; t < cols; t++) {
    const next = t + 1 < cols ? v[t + 1] : 0;
    deltas[t] = r[t] + gamma * next - v[t];
    magnitudes[t] = Math.abs(r[t]) + Math.abs(gamma * next) + Math.abs(v[t]);
  }
}

/** The first token from `from` on whose return is not A_t + V_t within a few roundings, or −1. */
function firstReturnNotSum(returns: Float32Array, adv: Float32Array, v: Float32Array, from: number): number {
  for (let t = from; t < returns.length; t++) {
    const allowed = RESIDUAL_FRACTION * (Math.abs(adv[t]) + Math.abs(v[t])) + RESIDUAL_FLOOR;
    if (!(Math.abs(returns[t] - (adv[t] + v[t])) <= allowed)) return t;
  }
  return -1;
}

export function checkEngineOutputs(p: PreparedProblem, strategy: Strategy, backend: string, run: Run): void {
  const fail = (what: string) => {
    throw new EngineOutputError(`the ${backend} engine returned ${what}`);
  };
  const { rows, cols } = p.kind === "reinforce_pp" ? p : p.rewards;
  const expectLength = (name: string, actual: { length: number }, length: number, shape: string) => {
    if (actual.length !== length) fail(`${actual.length} values for ${name}, where ${shape} needs ${length}`);
  };
  const o = run.outputs;
  if (o.kind !== p.kind) fail(`${o.kind} outputs for a ${p.kind} problem`);
  if (run.trace) {
    const layout = scanLayout(cols, p.chunkSize, strategy);
    const traceShape = `${rows} rows × ${layout.nChunks} chunks`;
    expectLength("the local scans", run.trace.localScans, rows * layout.nChunks * layout.chunkSize, traceShape);
    expectLength("the carries", run.trace.carriesIn, rows * layout.nChunks, traceShape);
  }

  if (rows * cols === 0) return;
  switch (p.kind) {
    case "discounted": {
      const { returns } = o as ScanOutputs<Float32Array> & { kind: "discounted" };
      expectLength("returns", returns, rows * cols, `${rows}×${cols}`);
      const d = Math.fround(p.discount);
      if (powersMayOverflow(d, cols, p.chunkSize)) return;
      for (let b = 0; b < rows; b++) {
        const row = (a: Float32Array) => a.subarray(b * cols, (b + 1) * cols);
        const x = row(p.rewards.data);
        const { broken } = checkRow(row(returns), x, d, undefined, nonFiniteReach(x, cols, p.chunkSize, strategy));
        if (broken) fail(brokenStepMessage("returns", "G_t = r_t + γ·G_{t+1}", "r_t", b, d, broken));
      }
      return;
    }
    case "gae": {
      const { advantages, returns } = o as ScanOutputs<Float32Array> & { kind: "gae" };
      expectLength("advantages", advantages, rows * cols, `${rows}×${cols}`);
      expectLength("returns", returns, rows * cols, `${rows}×${cols}`);
      const d = Math.fround(p.discount);
      if (powersMayOverflow(d, cols, p.chunkSize)) return;
      const gamma = Math.fround(p.gamma);
      const deltas = new Float64Array(cols);
      const magnitudes = new Float64Array(cols);
      for (let b = 0; b < rows; b++) {
        const start = b * cols;
        const r = p.rewards.data.subarray(start, start + cols);
        const v = p.values.data.subarray(start, start + cols);
        residualsOfRow(r, v, gamma, deltas, magnitudes);
        const adv = advantages.subarray(start, start + cols);
        const reach = nonFiniteReach(deltas, cols, p.chunkSize, strategy);
        const { broken, rowMagnitude } = checkRow(adv, deltas, d, magnitudes, reach);
        if (broken) fail(brokenStepMessage("advantages", "A_t = δ_t + γλ·A_{t+1}", "δ_t", b, d, broken));
        if (!(rowMagnitude < OVERFLOW_GUARD)) continue;
        const rowReturns = returns.subarray(start, start + cols);
        const t = firstReturnNotSum(rowReturns, adv, v, reach + 1);
        if (t >= 0) {
          fail(
            `returns = ${show(rowReturns[t])} at row ${b}, token ${t}, but returns_t = A_t + V_t gives ${show(adv[t] + v[t])} ` +
              `there (A_t = ${show(adv[t])}, V_t = ${show(v[t])}); ${SILENT}`,
          );
        }
      }
      return;
    }
    case "reinforce_pp": {
      const { returns, tokenLevelRewards } = o as ScanOutputs<Float32Array> & { kind: "reinforce_pp" };
      const n = p.tokens.length;
      expectLength("sequences of returns", returns, n, `a batch of ${n} sequences`);
      expectLength("sequences of token rewards", tokenLevelRewards, n, `a batch of ${n} sequences`);
      p.tokens.forEach((tokens, b) => {
        const length = `sequence ${b} of ${tokens.length} tokens`;
        expectLength(`returns for sequence ${b}`, returns[b], tokens.length, length);
        expectLength(`token rewards for sequence ${b}`, tokenLevelRewards[b], tokens.length, length);
      });
      const d = Math.fround(p.gamma);
      if (powersMayOverflow(d, cols, p.chunkSize)) return;
      p.tokens.forEach((tokens, b) => {
        const reach = nonFiniteReach(tokens, cols, p.chunkSize, strategy);
        const { broken } = checkRow(returns[b], tokens, d, undefined, reach);
        if (broken) fail(brokenStepMessage("returns", "G_t = tok_t + γ·G_{t+1}", "tok_t", b, d, broken));
      });
      return;
    }
  }
}

const SILENT =
  "the backend failed without raising an error (a buffer or texture it could not allocate reads back as zeros)";

interface BrokenStep {
  t: number;
  value: number;
  x: number;
  next: number;
  residual: number;
  allowed: number;
  /** The largest magnitude flowing into the row: why a NaN cannot be an overflow. */
  rowMagnitude: number;
}

/**
 * The last token (original time) that a row's NaN and ±Inf inputs can reach in the output; −1
 * when the row has none (inputs are non-finite only in a problem that opted in). The serial loop
 * (per-token) spreads them back to token 0 only; slime's chunked scan over the whole chunk that
 * holds the latest one, in its reversed, padded layout (0·NaN = NaN in the GEMM), then through the
 * carries (io/nonFinite.ts, ALGORITHM.md §b.4). The two-level scan and the fused kernel join chunks
 * by a second scan over their ends, which may carry a NaN across the whole row: the row is not judged.
 */
export function nonFiniteReach(x: ArrayLike<number>, cols: number, chunkSize: number, strategy: Strategy): number {
  let last = -1;
  for (let t = x.length - 1; t >= 0 && last < 0; t--) if (!Number.isFinite(x[t])) last = t;
  if (last < 0 || strategy === "per-token") return last;
  if (strategy !== "chunked") return cols - 1;
  return cols - 1 - Math.floor((cols - 1 - last) / chunkSize) * chunkSize;
}

/**
 * One row, right to left down to token `reach + 1`: the latest token whose value breaks
 * `G_t = x_t + d·G_{t+1}` (G_T = 0) by more than rounding allows, unless the row's magnitudes
 * reach OVERFLOW_GUARD (then nothing is judged), and the row's largest magnitude. `magnitudes`
 * defaults to |x|. Tokens up to `reach` are those non-finite inputs may poison: not judged.
 */
function checkRow(
  g: ArrayLike<number>,
  x: ArrayLike<number>,
  d: number,
  magnitudes?: ArrayLike<number>,
  reach = -1,
): { broken?: BrokenStep; rowMagnitude: number } {
  const absD = Math.abs(d);
  let magnitude = 0;
  let rowMagnitude = 0;
  let next = 0;
  let found: Omit<BrokenStep, "rowMagnitude"> | undefined;
  for (let t = x.length - 1; t > reach; t--) {
    magnitude = (magnitudes ? magnitudes[t] : Math.abs(x[t])) + absD * magnitude;
    if (magnitude > rowMagnitude) rowMagnitude = magnitude;
    const value = g[t];
    const residual = Math.abs(value - (x[t] + d * next));
    const allowed = RESIDUAL_FRACTION * magnitude + RESIDUAL_FLOOR;
    if (found === undefined && !(residual <= allowed)) found = { t, value, x: x[t], next, residual, allowed };
    next = value;
  }
  if (found === undefined || !(rowMagnitude < OVERFLOW_GUARD)) return { rowMagnitude };
  return { broken: { ...found, rowMagnitude }, rowMagnitude };
}

/**
 * With |d| > 1 the kernel and carry powers grow to about |d|^(T + C) and may overflow float32 on
 * their own (then 0·Inf = NaN is genuine), whatever the inputs: such runs are not judged.
 */
function powersMayOverflow(d: number, cols: number, chunkSize: number): boolean {
  return Math.abs(d) > 1 && (cols + 2 * chunkSize) * Math.log2(Math.abs(d)) >= Math.log2(OVERFLOW_GUARD);
}

function brokenStepMessage(
  output: string,
  recurrence: string,
  input: string,
  row: number,
  d: number,
  s: BrokenStep,
): string {
  const where = `${output} = ${show(s.value)} at row ${row}, token ${s.t}`;
  if (!Number.isFinite(s.value)) {
    return (
      `${where}, though every input is finite and no float32 value on the way can overflow ` +
      `(the largest magnitude flowing into that row is ${show(s.rowMagnitude)}): ${SILENT}`
    );
  }
  return (
    `${where}, but ${recurrence} gives ${show(s.x + d * s.next)} there (${input} = ${show(s.x)}, ` +
    `the next value ${show(s.next)}, discount ${show(d)}): off by ${show(s.residual)}, where float32 ` +
    `rounding allows at most ${show(s.allowed)}; ${SILENT}`
  );
}

/** A value as it reads best in a message: `1`, `0.015625`, `3.2e+4`, `NaN`. */
function show(x: number): string {
  return String(Number(x.toPrecision(6)));
}
