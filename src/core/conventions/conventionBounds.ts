import type { Precision } from "../batch";
import { DEFAULT_CHUNK_SIZE } from "../chunkedScan";
import { type ScanAlgorithm, type ScanBoundRow, SUBNORMAL_STEP, scanErrorBound, UNIT_ROUNDOFF } from "../errorBound";
import { magnitudeScan } from "../outputBounds";
import { runConvention } from "./runConvention";
import { conventionTokenRewards } from "./tokenRewards";
import type { ConventionBatch, ConventionEstimator, ConventionParams, ConventionResult, Library } from "./types";

/**
 * Per-element error bounds for a library convention's outputs computed in `precision`, against
 * the same convention in float64: the scan bound of docs/ERROR_BOUND.md over each library's own
 * recursion (slime's chunked scan on the padded batch, OpenRLHF's and verl's serial loops), then
 * the propagation of those errors through whitening. `batch` holds float64 inputs.
 */
export function conventionErrorBounds(
  library: Library,
  estimator: ConventionEstimator,
  batch: ConventionBatch<Float64Array>,
  params: ConventionParams,
  precision: Precision,
): ConventionResult<Float64Array> {
  const u = UNIT_ROUNDOFF[precision];
  const eta = SUBNORMAL_STEP[precision];
  const float32 = precision === "float32";
  const { rewardIndex } = conventionTokenRewards(library, estimator, batch, params);
  const beta = Math.abs(params.klCoef);
  const masks = batch.lossMasks;
  const maxLength = batch.kl.reduce((max, row) => Math.max(max, row.length), 0);
  // slime scans the right-padded batch in chunks; the others loop over each sequence.
  const algorithm: ScanAlgorithm = library === "slime" ? "chunked" : "serial";
  const scanLength = (L: number) => (library === "slime" ? maxLength : L);

  const tokenMagnitudes = batch.kl.map((kl, i) => {
    const out = new Float64Array(kl.length);
    for (let t = 0; t < kl.length; t++) out[t] = beta * Math.abs(kl[t]);
    if (rewardIndex[i] >= 0) out[rewardIndex[i]] += Math.abs(batch.rewards[i]);
    return out;
  });
  const tokenRoundings = float32 ? 5 : 2;
  const tokenLevelRewards = tokenMagnitudes.map((row) => row.map((x) => tokenRoundings * u * x + eta));

  const scan = (row: ScanBoundRow, L: number, discount: number, inputRoundings: number) => {
    const padded = new Float64Array(scanLength(L));
    padded.set(Array.from(row.magnitudes).slice(0, L));
    const rounding = { precision, algorithm, chunkSize: DEFAULT_CHUNK_SIZE, inputRoundings };
    return scanErrorBound({ ...row, magnitudes: padded }, discount, rounding).slice(0, L);
  };

  let returns: Float64Array[];
  let raw: Float64Array[];
  if (estimator === "reinforce_pp") {
    returns = tokenMagnitudes.map((row) => scan({ magnitudes: row }, row.length, params.gamma, tokenRoundings));
    raw = returns;
  } else {
    const values = batch.values ?? [];
    const gamma = Math.abs(params.gamma);
    const discount = params.gamma * (params.lambd ?? 0);
    const advantages: Float64Array[] = [];
    returns = tokenMagnitudes.map((tokens, i) => {
      const v = values[i];
      const m = masks[i];
      const L = tokens.length;
      // |δ_t| ≤ |r_t| + |γ|·|V_next| + |V_t|; verl's V_next is the next unmasked token's value, and
      // its running advantage passes masked tokens unchanged.
      const magnitudes = new Float64Array(L);
      const carriedThrough = new Float64Array(L);
      let nextValue = 0;
      for (let t = L - 1; t >= 0; t--) {
        const next = library === "verl" ? nextValue : t + 1 < L ? Math.abs(v[t + 1]) : 0;
        magnitudes[t] = tokens[t] + gamma * next + Math.abs(v[t]);
        if (library === "verl" && m[t] === 0) {
          magnitudes[t] = 0;
          carriedThrough[t] = 1;
        }
        if (m[t] === 1) nextValue = Math.abs(v[t]);
      }
      const row = { magnitudes, carriedThrough };
      const bound = scan(row, L, discount, tokenRoundings + 3);
      advantages.push(bound);
      const magnitude = magnitudeScan(row, discount);
      return bound.map((e, t) => e * (1 + u) + u * magnitude[t] + 2 * u * Math.abs(v[t]) + eta);
    });
    raw = advantages;
  }

  let advantages = raw;
  if (params.normalize) {
    const plain = runConvention(library, estimator, batch, { ...params, normalize: false });
    const before = estimator === "reinforce_pp" ? plain.returns : plain.advantages;
    advantages = whiteningBounds(library, before, raw, masks, precision);
  }
  // verl re-masks its REINFORCE++ advantages: exact zeros there.
  if (library === "verl" && estimator === "reinforce_pp") {
    advantages = advantages.map((row, i) => row.map((e, t) => e * masks[i][t]));
  }
  return { tokenLevelRewards, returns, advantages, rewardIndex: rewardIndex.map(() => 0) };
}

/**
 * Bounds after whitening `(a − μ)·rsqrt(var + ε)`: the errors E of a shift the mean by at most
 * max E and the standard deviation by at most the masked RMS of E (centring is a projection),
 * and a standard deviation known to within Δσ scales every output by up to Δσ/(σ − Δσ). When
 * Δσ reaches σ/2 the result is too ill-conditioned to check and the bound is infinite, which the
 * checker reports as a failure.
 */
function whiteningBounds(
  library: Library,
  advantages: Float64Array[],
  errors: Float64Array[],
  masks: ArrayLike<number>[],
  precision: Precision,
): Float64Array[] {
  const u = UNIT_ROUNDOFF[precision];
  const eta = SUBNORMAL_STEP[precision];
  let n = 0;
  let sum = 0;
  let sumAbs = 0;
  let sumSquares = 0;
  let maxError = 0;
  let sumErrorSquares = 0;
  advantages.forEach((row, i) => {
    row.forEach((a, t) => {
      const m = masks[i][t];
      if (m === 0) return;
      n += 1;
      sum += a;
      sumAbs += Math.abs(a);
      sumSquares += a * a;
      maxError = Math.max(maxError, errors[i][t]);
      sumErrorSquares += errors[i][t] ** 2;
    });
  });
  if (n === 0) return errors.map((row) => row.map(() => Number.POSITIVE_INFINITY));
  const mean = sum / (library === "verl" ? n + 1e-8 : n);
  let centered = 0;
  advantages.forEach((row, i) => {
    row.forEach((a, t) => {
      centered += masks[i][t] * (a - mean) ** 2;
    });
  });
  const divisor = library !== "openrlhf" && n >= 2 ? n - 1 : n;
  const variance = centered / divisor;
  const scaled = library === "openrlhf" ? Math.max(variance, 1e-8) : variance + 1e-8;
  const sigma = Math.sqrt(scaled);
  const meanError = maxError + 2 * u * (sumAbs / n) + eta;
  // Statistics are summed in float64 (n roundings of a²) and the variance rounded once.
  const varianceRounding = (2 * n * UNIT_ROUNDOFF.float64 * sumSquares) / divisor + u * scaled;
  const sigmaError = Math.sqrt(sumErrorSquares / divisor) + varianceRounding / (2 * sigma);
  const ill = !(sigmaError < sigma / 2);
  const rstdError = sigmaError / (sigma - sigmaError) + 2 * u;
  return advantages.map((row, i) =>
    row.map((a, t) => {
      if (ill) return Number.POSITIVE_INFINITY;
      const shifted = (errors[i][t] + meanError) / sigma;
      const normalized = Math.abs(a - mean) / sigma;
      return shifted * (1 + rstdError) + normalized * rstdError + 2 * u * (normalized + shifted) + eta;
    }),
  );
}
