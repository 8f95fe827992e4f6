import { type FloatArray, type Precision, type Zeros, zerosLike } from "./batch";
import { type ScanAlgorithm, type ScanBoundRow, SUBNORMAL_STEP, scanErrorBound, UNIT_ROUNDOFF } from "./errorBound";
import type { ScanOutputs, ScanProblem } from "./problem";

/** The implementation a result came from: its working precision and how it combined chunks. */
export interface Implementation {
  precision: Precision;
  algorithm: ScanAlgorithm;
}

/** The type the bounds' tables take after (zeros' `like`). */
const FLOAT64 = new Float64Array(0);

/**
 * Per-element error bounds for every output of a problem, shaped like the outputs themselves:
 * what an implementation's result may differ from the float64 serial truth by, element by element.
 * `problem` holds the inputs as the reference sees them (float64).
 */
export function outputErrorBounds(
  problem: ScanProblem,
  implementation: Implementation,
  /** Where the rectangular bounds' tables come from (the discounted and GAE kinds). */
  zeros: Zeros = zerosLike,
): ScanOutputs<Float64Array> {
  const { precision, algorithm } = implementation;
  const float32 = precision === "float32";
  const u = UNIT_ROUNDOFF[precision];
  const eta = SUBNORMAL_STEP[precision];
  const rounding = (inputRoundings: number) => ({ precision, algorithm, chunkSize: problem.chunkSize, inputRoundings });

  switch (problem.kind) {
    case "discounted": {
      const { rows, cols, data } = problem.rewards;
      const returns = zeros(FLOAT64, rows * cols);
      for (let b = 0; b < rows; b++) {
        const row = { magnitudes: data.subarray(b * cols, (b + 1) * cols) };
        scanErrorBound(
          row,
          problem.discount,
          rounding(float32 ? 1 : 0),
          cols,
          returns.subarray(b * cols, (b + 1) * cols),
        );
      }
      return { kind: "discounted", returns };
    }
    case "gae": {
      const { rows, cols } = problem.rewards;
      const r = problem.rewards.data;
      const v = problem.values.data;
      const gamma = Math.abs(problem.gamma);
      const advantages = zeros(FLOAT64, rows * cols);
      const returns = zeros(FLOAT64, rows * cols);
      // One row's magnitudes and their scan, reused row after row.
      const magnitudes = new Float64Array(cols);
      const magnitude = new Float64Array(cols);
      for (let b = 0; b < rows; b++) {
        const start = b * cols;
        residualMagnitudes(magnitudes, r, v, start, cols, gamma);
        const bound = advantages.subarray(start, start + cols);
        scanErrorBound({ magnitudes }, problem.gamma * problem.lambd, rounding(float32 ? 5 : 3), cols, bound);
        magnitudeScan({ magnitudes }, problem.gamma * problem.lambd, magnitude);
        returnsBound(returns, bound, magnitude, v, start, u, eta);
      }
      return { kind: "gae", advantages, returns };
    }
    case "reinforce_pp": {
      const { batch, klCoef, gamma } = problem;
      const beta = Math.abs(klCoef);
      const maxLength = batch.kl.reduce((max, row) => Math.max(max, row.length), 0);
      const inputRoundings = float32 ? 5 : 2;
      const tokenLevelRewards: Float64Array[] = [];
      const returns: Float64Array[] = [];
      batch.kl.forEach((kl, i) => {
        const mask = batch.lossMasks[i];
        // The scan runs over the batch right-padded to the longest row: chunks align to that length.
        const magnitudes = new Float64Array(maxLength);
        let last = -1;
        for (let t = 0; t < kl.length; t++) {
          magnitudes[t] = beta * Math.abs(kl[t]) * (mask[t] === 0 ? 0 : 1);
          if (mask[t] !== 0) last = t;
        }
        if (last >= 0) magnitudes[last] += Math.abs(batch.rewards[i]);
        const tokens = new Float64Array(kl.length);
        for (let t = 0; t < kl.length; t++) tokens[t] = inputRoundings * u * magnitudes[t] + eta;
        tokenLevelRewards.push(tokens);
        returns.push(scanErrorBound({ magnitudes }, gamma, rounding(inputRoundings)).slice(0, kl.length));
      });
      return { kind: "reinforce_pp", returns, tokenLevelRewards };
    }
  }
}

// The per-token loops of one row are functions of their own, not inner loops (see README, "Inner loops").

/** |δ_t| ≤ |r_t| + |γ|·|V_{t+1}| + |V_t|, with γ·V, + and − each rounded once (and the inputs and γ converted once in float32). */
function residualMagnitudes(
  magnitudes: Float64Array,
  r: FloatArray,
  v: FloatArray,
  start: number,
  cols: number,
  gamma: number,
): void {
  for (let t = 0; t < cols; t++) {
    const next = t + 1 < cols ? Math.abs(v[start + t + 1]) : 0;
    magnitudes[t] = Math.abs(r[start + t]) + gamma * next + Math.abs(v[start + t]);
  }
}

/** returns = A + V: the advantage's bound, one more rounding, and V's own conversion. */
function returnsBound(
  out: Float64Array,
  bound: Float64Array,
  magnitude: Float64Array,
  v: FloatArray,
  start: number,
  u: number,
  eta: number,
): void {
  for (let t = 0; t < bound.length; t++) {
    out[start + t] = bound[t] * (1 + u) + u * magnitude[t] + 2 * u * Math.abs(v[start + t]) + eta;
  }
}

/** `A_t = |x_t| + |d|·A_{t+1}`: the scan over magnitudes that every bound is proportional to. */
export function magnitudeScan(
  row: ScanBoundRow,
  discount: number,
  /** Where to write it (every element is written): a caller scanning row after row reuses one. */
  out: Float64Array = new Float64Array(row.magnitudes.length),
): Float64Array {
  const { magnitudes, carriedThrough } = row;
  const d = Math.max(Math.abs(discount), Math.abs(Math.fround(discount)));
  let A = 0;
  for (let t = magnitudes.length - 1; t >= 0; t--) {
    A = Math.abs(magnitudes[t]) + (carriedThrough?.[t] === 1 ? 1 : d) * A;
    out[t] = A;
  }
  return out;
}
