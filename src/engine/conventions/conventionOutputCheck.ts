import type { ConventionResult } from "../../core";
import type { Strategy } from "../../names/strategies";
import { EngineOutputError } from "../engineErrors";
import { OVERFLOW_GUARD, RESIDUAL_FLOOR, RESIDUAL_FRACTION } from "../outputCheck";
import { conventionReach } from "./conventionReach";
import type { PreparedConvention } from "./prepareConvention";

const SILENT =
  "the backend failed without raising an error (a buffer or texture it could not allocate reads back as zeros)";

/**
 * What outputCheck.ts does for the scan problems, for a convention: every output has one value
 * per token, and the returns satisfy the library's own recursion within float32 rounding (as a
 * fraction of the magnitude flowing into each token), on every sequence and token; whitened
 * advantages are finite wherever the statistics are. A silent device failure is reported with
 * its sequence and token instead of being judged as numbers. NaN and ±Inf inputs (a problem that
 * opted in) leave unjudged exactly the tokens they can reach with this library and strategy
 * (conventionReach.ts); a non-finite value anywhere else is still a failure.
 */
export function checkConventionOutputs(
  p: PreparedConvention,
  backend: string,
  r: ConventionResult<Float32Array>,
  strategy: Strategy,
): void {
  const fail = (what: string) => {
    throw new EngineOutputError(`the ${backend} engine returned ${what}`);
  };
  for (const [name, rows] of [
    ["returns", r.returns],
    ["advantages", r.advantages],
  ] as const) {
    if (rows.length !== p.tokens.length) fail(`${rows.length} sequences of ${name} for a batch of ${p.tokens.length}`);
    rows.forEach((row, b) => {
      if (row.length !== p.tokens[b].length) {
        fail(`${row.length} ${name} for sequence ${b} of ${p.tokens[b].length} tokens`);
      }
    });
  }
  const gamma = Math.fround(p.gamma);
  const reach = conventionReach(p, strategy);
  p.tokens.forEach((tok, b) => {
    const m = p.masks[b];
    const L = tok.length;
    const masked = p.library === "openrlhf";
    if (p.estimator === "reinforce_pp") {
      const x = masked ? tok.map((v, t) => v * m[t]) : tok;
      // verl cuts the carry into t when m_{t+1} = 0.
      const decay = (t: number) => (p.library === "verl" && t + 1 < L && m[t + 1] === 0 ? 0 : gamma);
      const order = Array.from({ length: L }, (_, t) => L - 1 - t);
      checkChain(r.returns[b], x, Array.from(x, Math.abs), order, decay, reach.returns[b], (t, message) =>
        fail(`returns = ${message} at sequence ${b}, token ${t}; ${SILENT}`),
      );
    } else checkGaeSequence(p, r, b, gamma, reach, fail);
  });
  // OpenRLHF whitens over N = 0 tokens into NaN, as the library does; otherwise the statistics are
  // finite unless a non-finite advantage went into them.
  if (p.normalize && p.validTokens > 0 && !reach.whitening) {
    r.advantages.forEach((row, b) => {
      const t = row.findIndex((a) => !Number.isFinite(a));
      if (t >= 0 && finiteInputs(p))
        fail(`advantages = ${row[t]} at sequence ${b}, token ${t} after whitening; ${SILENT}`);
    });
  }
}

/**
 * One GAE sequence: returns − V along the library's chain (verl's runs over mask-1 tokens only),
 * then advantages = returns − V unless they were whitened. A function per sequence with the masked
 * rewards and values in arrays: as a closure per sequence reading them through functions and a Map
 * of each token's successor, it allocated a map of every token per sequence and was recompiled by V8
 * at every run.
 */
function checkGaeSequence(
  p: PreparedConvention,
  r: ConventionResult<Float32Array>,
  b: number,
  gamma: number,
  reach: ReturnType<typeof conventionReach>,
  fail: (what: string) => void,
): void {
  const tok = p.tokens[b];
  const m = p.masks[b];
  const L = tok.length;
  const masked = p.library === "openrlhf";
  const v = p.values?.[b] ?? new Float32Array(L);
  const value = new Float64Array(L);
  const reward = new Float64Array(L);
  for (let t = 0; t < L; t++) {
    value[t] = masked ? v[t] * m[t] : v[t];
    reward[t] = masked ? tok[t] * m[t] : tok[t];
  }
  const order: number[] = [];
  for (let t = L - 1; t >= 0; t--) if (p.library !== "verl" || m[t] === 1) order.push(t);
  const deltas = new Float64Array(L);
  const magnitudes = new Float64Array(L);
  const raw = new Float64Array(L);
  for (let i = 0; i < order.length; i++) {
    const t = order[i];
    // The token this one reads from is the one before it in `order` (none for the first).
    const nextValue = i > 0 ? value[order[i - 1]] : 0;
    deltas[t] = reward[t] + gamma * nextValue - value[t];
    magnitudes[t] = Math.abs(reward[t]) + Math.abs(gamma * nextValue) + 2 * Math.abs(value[t]);
  }
  const returns = r.returns[b];
  for (let t = 0; t < L; t++) raw[t] = returns[t] - value[t];
  const discount = Math.fround(p.gamma * p.lambd);
  checkChain(
    raw,
    deltas,
    magnitudes,
    order,
    () => discount,
    reach.advantages[b],
    (t, message) => fail(`returns − values = ${message} at sequence ${b}, token ${t}; ${SILENT}`),
  );
  if (p.normalize) return;
  const advantages = r.advantages[b];
  for (let t = 0; t < L; t++) {
    if (reach.returns[b][t]) continue;
    const allowed = RESIDUAL_FRACTION * (Math.abs(returns[t]) + Math.abs(v[t])) + RESIDUAL_FLOOR;
    if (!(Math.abs(advantages[t] - raw[t]) <= allowed)) {
      fail(
        `advantages = ${advantages[t]} at sequence ${b}, token ${t}, but returns − values gives ${raw[t]}; ${SILENT}`,
      );
    }
  }
}

/**
 * Below OVERFLOW_GUARD no value on the way can overflow: a non-finite output is a failure. (Inputs
 * that are non-finite themselves are the reach's business.)
 */
function finiteInputs(p: PreparedConvention): boolean {
  const limit = (row: Float32Array) => OVERFLOW_GUARD / (row.length + 1);
  const big = (row: Float32Array) => row.some((x) => Number.isFinite(x) && !(Math.abs(x) < limit(row)));
  return !p.tokens.some(big) && !(p.values ?? []).some(big);
}

/**
 * Along `order` (each token after the one it reads from): `g_t = x_t + d·g_next` within
 * RESIDUAL_FRACTION of the magnitude flowing in, unless that magnitude reaches OVERFLOW_GUARD.
 * Tokens `reached` by non-finite inputs are skipped; the tokens after one in `order` are reached
 * too or start a new chain (a cut, d = 0), so the chain restarts from 0 there.
 */
function checkChain(
  g: ArrayLike<number>,
  x: ArrayLike<number>,
  magnitudes: ArrayLike<number>,
  order: number[],
  decay: (t: number) => number,
  reached: Uint8Array,
  fail: (t: number, message: string) => void,
): void {
  let next = 0;
  let magnitude = 0;
  for (const t of order) {
    if (reached[t]) {
      next = 0;
      magnitude = 0;
      continue;
    }
    const d = decay(t);
    magnitude = magnitudes[t] + Math.abs(d) * magnitude;
    if (!(magnitude < OVERFLOW_GUARD)) return;
    const expected = x[t] + d * next;
    if (!(Math.abs(g[t] - expected) <= RESIDUAL_FRACTION * magnitude + RESIDUAL_FLOOR)) {
      fail(t, `${g[t]}, but the recursion gives ${expected} there (off by ${Math.abs(g[t] - expected)})`);
    }
    next = g[t];
  }
}
