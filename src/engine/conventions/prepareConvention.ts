import {
  allowingNonFinite,
  type ConventionEstimator,
  type ConventionProblem,
  checkChunkSize,
  checkConventionInputs,
  conventionTokenRewards,
  type Library,
  ScanInputError,
} from "../../core";

/** A convention problem checked, with its float32 token rewards computed on the host by core. */
export interface PreparedConvention {
  library: Library;
  estimator: ConventionEstimator;
  /** Token-level rewards of each sequence (ragged): an output in their own right. */
  tokens: Float32Array[];
  /** GAE only: the critic values in float32 (ragged). */
  values?: Float32Array[];
  masks: ArrayLike<number>[];
  rewardIndex: number[];
  /** `[B, max L]`: the right-padded batch every tensor of the run has. */
  rows: number;
  cols: number;
  gamma: number;
  /** GAE only. */
  lambd: number;
  normalize: boolean;
  chunkSize: number;
  /** Mask-1 tokens of the whole batch: the whitening's N. */
  validTokens: number;
  /** The problem opted in to NaN and ±Inf inputs (they were let through). */
  allowNonFinite: boolean;
}

/**
 * Runs core's checks in core's order (inputs, token rewards with slime's fully-masked assertion,
 * the whitening's count), so the engine fails with the very ScanInputError core raises, then the
 * chunk size; converts everything to float32 first, as the engine computes in float32.
 */
export function prepareConvention(problem: ConventionProblem): PreparedConvention {
  // A problem that opted in (the playground's lesson) runs its NaN and ±Inf; checkConventionOutputs
  // then accepts non-finite outputs only where each library's rules can carry them.
  return problem.allowNonFinite
    ? allowingNonFinite(() => prepareChecked(problem, true))
    : prepareChecked(problem, false);
}

function prepareChecked(problem: ConventionProblem, allowNonFinite: boolean): PreparedConvention {
  const { library, estimator, params, chunkSize } = problem;
  const f32 = (row: ArrayLike<number>) => (row instanceof Float32Array ? row : Float32Array.from(row));
  const batch = { ...problem.batch, kl: problem.batch.kl.map(f32), values: problem.batch.values?.map(f32) };
  checkConventionInputs(estimator, batch, params);
  const { tokenLevelRewards: tokens, rewardIndex } = conventionTokenRewards(library, estimator, batch, params);
  tokens.forEach((row, i) => {
    const t = allowNonFinite ? -1 : row.findIndex((x) => !Number.isFinite(x));
    if (t >= 0) {
      throw new ScanInputError(`the token-level reward of sequence ${i} at token ${t} overflows float32: ${row[t]}`);
    }
  });
  if (estimator === "gae" && !allowNonFinite) {
    batch.values?.forEach((row, i) => {
      const t = row.findIndex((x) => !Number.isFinite(x));
      if (t >= 0) throw new ScanInputError(`values[${i}] overflows float32 at token ${t}`);
    });
  }
  const masks = batch.lossMasks;
  const validTokens = masks.reduce((n, mask) => n + maskSum(mask), 0);
  if (params.normalize && library === "slime" && validTokens === 0) {
    throw new ScanInputError("no valid tokens to whiten advantages over (N = 0)");
  }
  // verl whitens its advantages always; the `normalize: false` cases show them right before.
  if (params.normalize && library === "verl" && validTokens < 2) {
    throw new ScanInputError(`at least 2 valid tokens are needed to whiten advantages, got ${validTokens}`);
  }
  checkChunkSize(chunkSize);
  return {
    library,
    estimator,
    tokens,
    values: estimator === "gae" ? batch.values : undefined,
    masks,
    rewardIndex,
    rows: tokens.length,
    cols: tokens.reduce((longest, row) => Math.max(longest, row.length), 0),
    gamma: params.gamma,
    lambd: params.lambd ?? 0,
    normalize: params.normalize,
    chunkSize,
    validTokens,
    allowNonFinite,
  };
}

/** The valid tokens of one row: a per-row function, not an inner loop (see README, "Inner loops"). */
function maskSum(mask: ArrayLike<number>): number {
  let n = 0;
  for (let t = 0; t < mask.length; t++) n += mask[t];
  return n;
}

/** Ragged rows right-padded with zeros to `[rows, cols]`, row-major. */
export function paddedData(rows: ArrayLike<number>[], cols: number): Float32Array {
  const data = new Float32Array(rows.length * cols);
  rows.forEach((row, b) => {
    data.set(row, b * cols);
  });
  return data;
}
