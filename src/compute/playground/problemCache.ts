import type { ScanProblem } from "../../core";
import { klRow, setPaddedRow } from "../../io/playgroundProblem";
import type { Estimator, PlaygroundRow, PlaygroundState } from "../../io/playgroundState";

/**
 * The float64 and float32 problems of a state, as stateToProblem builds them. Building the input
 * arrays from the rows (plain number arrays) is the costly part: 4 ms at 16 × 8192, 60–90 ms at
 * 64 × 32768 (once per rows array, in the task of the edit that made it). A γ, λ, β or chunk-size
 * change leaves them as they were: they are built once per rows array and estimator, and the
 * parameters set on each call. The float32 problem holds the float64 one's values converted (the
 * inputs are float32 values already). Loss masks are Float64Arrays, so that a worker gets them
 * copied as memory rather than number by number (same values as laneOf's).
 */
interface Inputs {
  estimator: Estimator;
  p64: ScanProblem;
  p32: ScanProblem;
}

const cache = new WeakMap<PlaygroundRow[], Inputs>();

export function problemsFor(state: PlaygroundState, rows: PlaygroundRow[]): { p64: ScanProblem; p32: ScanProblem } {
  let inputs = cache.get(rows);
  if (!inputs || inputs.estimator !== state.estimator) {
    inputs = buildInputs(state, rows);
    cache.set(rows, inputs);
  }
  return { p64: withParams(inputs.p64, state), p32: withParams(inputs.p32, state) };
}

function buildInputs(state: PlaygroundState, rows: PlaygroundRow[]): Inputs {
  const { estimator, gamma, lambd, chunkSize, klCoef } = state;
  // NaN and ±Inf are run, not refused, as stateToProblem sets it.
  const allowNonFinite = true;
  if (estimator === "reinforce_pp") {
    const kl64 = new Array<Float64Array>(rows.length);
    const kl32 = new Array<Float32Array>(rows.length);
    const lossMasks = new Array<Float64Array>(rows.length);
    rows.forEach((row, b) => {
      kl64[b] = klRow(row, "float64") as Float64Array;
      kl32[b] = Float32Array.from(kl64[b]);
      lossMasks[b] = row.lossMask ? Float64Array.from(row.lossMask) : new Float64Array(row.length).fill(1);
    });
    const rewards = rows.map((row) => Math.fround(row.outcome ?? 0));
    const problem = (kl: Float64Array[] | Float32Array[]): ScanProblem => ({
      kind: "reinforce_pp",
      batch: { rewards, kl, lossMasks },
      klCoef,
      gamma,
      chunkSize,
      allowNonFinite,
    });
    return { estimator, p64: problem(kl64), p32: problem(kl32) };
  }
  const cols = rows.reduce((max, row) => Math.max(max, row.length), 0);
  const lanes = estimator === "gae" ? (["rewards", "values"] as const) : (["rewards"] as const);
  const tables = lanes.map(() => ({
    d64: new Float64Array(rows.length * cols),
    d32: new Float32Array(rows.length * cols),
  }));
  rows.forEach((_, b) => {
    lanes.forEach((lane, i) => {
      const { d64, d32 } = tables[i];
      setPaddedRow(d64, rows[b], lane, b, cols);
      d32.set(d64.subarray(b * cols, (b + 1) * cols), b * cols);
    });
  });
  const batch = (data: Float64Array | Float32Array) => ({ rows: rows.length, cols, data });
  if (estimator === "gae") {
    const [r, v] = tables;
    const problem = (rewards: ReturnType<typeof batch>, values: ReturnType<typeof batch>): ScanProblem => ({
      kind: "gae",
      rewards,
      values,
      gamma,
      lambd,
      chunkSize,
      allowNonFinite,
    });
    return { estimator, p64: problem(batch(r.d64), batch(v.d64)), p32: problem(batch(r.d32), batch(v.d32)) };
  }
  const [r] = tables;
  const problem = (rewards: ReturnType<typeof batch>): ScanProblem => ({
    kind: "discounted",
    rewards,
    discount: gamma,
    chunkSize,
    allowNonFinite,
  });
  return { estimator, p64: problem(batch(r.d64)), p32: problem(batch(r.d32)) };
}

function withParams(problem: ScanProblem, state: PlaygroundState): ScanProblem {
  const { gamma, lambd, klCoef, chunkSize } = state;
  switch (problem.kind) {
    case "discounted":
      return { ...problem, discount: gamma, chunkSize };
    case "gae":
      return { ...problem, gamma, lambd, chunkSize };
    case "reinforce_pp":
      return { ...problem, gamma, klCoef, chunkSize };
  }
}
