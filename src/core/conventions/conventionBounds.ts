import type { Precision } from "../batch";
import { DEFAULT_CHUNK_SIZE } from "../chunkedScan";
import {
  type ScanAlgorithm,
  type ScanBoundRow,
  type ScanRounding,
  SUBNORMAL_STEP,
  scanErrorBound,
  UNIT_ROUNDOFF,
} from "../errorBound";
import { magnitudeScan } from "../outputBounds";
import { runConvention } from "./runConvention";
import { cutSegments, nextUnmaskedIndex, segmentWidth, unmaskedPositions } from "./segments";
import { conventionTokenRewards } from "./tokenRewards";
import type { ConventionBatch, ConventionEstimator, ConventionParams, ConventionResult, Library } from "./types";

/**
 * How a convention was computed by batched scans (the engine's way) instead of each library's own
 * loops: every scan over the right-padded `[B, max L]` batch with this algorithm and chunk size;
 * verl's REINFORCE++ as its cut segments, each left-padded to its width (segments.ts); verl's GAE
 * over each sequence's mask-1 tokens laid side by side, right-padded to the most of them; the
 * whitening statistics as float32 pairwise sums over the padded batch.
 */
export interface BatchedScanOrder {
  algorithm: ScanAlgorithm;
  chunkSize: number;
}

/**
 * Per-element error bounds for a library convention's outputs computed in `precision`, against
 * the same convention in float64: the scan bound of docs/ERROR_BOUND.md over each library's own
 * recursion (slime's chunked scan on the padded batch, OpenRLHF's and verl's serial loops), or
 * over the batched scans of `order` when given, then the propagation of those errors through
 * whitening. `batch` holds float64 inputs.
 */
export function conventionErrorBounds(
  library: Library,
  estimator: ConventionEstimator,
  batch: ConventionBatch<Float64Array>,
  params: ConventionParams,
  precision: Precision,
  order?: BatchedScanOrder,
  /** Where the outcome reward went, when not where the library puts it (slime's PPO under context parallelism). */
  rewardAt?: number[],
  /** The padded batch's length when `batch` is some of its rows (a window of them): each row's bound is its own. */
  paddedLength?: number,
): ConventionResult<Float64Array> {
  const u = UNIT_ROUNDOFF[precision];
  const eta = SUBNORMAL_STEP[precision];
  const float32 = precision === "float32";
  const rewardIndex = rewardAt ?? conventionTokenRewards(library, estimator, batch, params).rewardIndex;
  const beta = Math.abs(params.klCoef);
  const masks = batch.lossMasks;
  const maxLength = paddedLength ?? batch.kl.reduce((max, row) => Math.max(max, row.length), 0);
  // slime scans the right-padded batch in chunks; the others loop over each sequence, unless
  // batched scans (`order`) computed them all.
  const algorithm: ScanAlgorithm = order?.algorithm ?? (library === "slime" ? "chunked" : "serial");
  const chunkSize = order?.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const scanLength = (L: number) => (library === "slime" || order ? maxLength : L);

  const tokenMagnitudes = batch.kl.map((kl, i) => {
    const out = new Float64Array(kl.length);
    for (let t = 0; t < kl.length; t++) out[t] = beta * Math.abs(kl[t]);
    if (rewardIndex[i] >= 0) out[rewardIndex[i]] += Math.abs(batch.rewards[i]);
    return out;
  });
  const tokenRoundings = float32 ? 5 : 2;
  // Built when read: slime's replay reads only the returns and advantages (35 MB not allocated at 4.4 M tokens).
  let tokenLevelRewards: Float64Array[] | undefined;
  const tokenLevelRewardsOf = () => {
    tokenLevelRewards ??= tokenMagnitudes.map((row) => {
      const out = new Float64Array(row.length);
      for (let t = 0; t < row.length; t++) out[t] = tokenRoundings * u * row[t] + eta;
      return out;
    });
    return tokenLevelRewards;
  };

  const scan = (row: ScanBoundRow, L: number, discount: number, inputRoundings: number) => {
    const rounding = { precision, algorithm, chunkSize, inputRoundings };
    return scanErrorBound(row, discount, rounding, scanLength(L));
  };
  const batchedVerl = order !== undefined && library === "verl";

  let returns: Float64Array[];
  let raw: Float64Array[];
  if (estimator === "reinforce_pp") {
    returns = batchedVerl
      ? segmentBounds(tokenMagnitudes, masks, params.gamma, {
          precision,
          algorithm,
          chunkSize,
          inputRoundings: tokenRoundings,
        })
      : tokenMagnitudes.map((row) => scan({ magnitudes: row }, row.length, params.gamma, tokenRoundings));
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
      // Only verl carries its advantage through masked tokens; an absent row of flags reads as none
      // (the scans test `=== 1`), and spares 8 bytes a token at 4 M tokens.
      const verl = library === "verl";
      const carriedThrough = verl ? new Float64Array(L) : undefined;
      let nextValue = 0;
      for (let t = L - 1; t >= 0; t--) {
        const next = verl ? nextValue : t + 1 < L ? Math.abs(v[t + 1]) : 0;
        magnitudes[t] = tokens[t] + gamma * next + Math.abs(v[t]);
        if (carriedThrough && m[t] === 0) {
          magnitudes[t] = 0;
          carriedThrough[t] = 1;
        }
        if (m[t] === 1) nextValue = Math.abs(v[t]);
      }
      const row = { magnitudes, carriedThrough };
      const bound = batchedVerl ? new Float64Array(L) : scan(row, L, discount, tokenRoundings + 3);
      advantages.push(bound);
      const magnitude = magnitudeScan(row, discount);
      if (batchedVerl) {
        bound.set(
          compactedBound(
            magnitudes,
            m,
            discount,
            { precision, algorithm, chunkSize, inputRoundings: tokenRoundings + 3 },
            maxUnmasked(masks),
          ),
        );
      }
      const out = new Float64Array(L);
      for (let t = 0; t < L; t++) out[t] = bound[t] * (1 + u) + u * magnitude[t] + 2 * u * Math.abs(v[t]) + eta;
      return out;
    });
    raw = advantages;
  }

  let advantages = raw;
  if (params.normalize) {
    const plain = runConvention(library, estimator, batch, { ...params, normalize: false });
    const before = estimator === "reinforce_pp" ? plain.returns : plain.advantages;
    // Batched whitening sums over the flattened padded batch pairwise: ⌈log₂(B·max L)⌉ levels.
    const depth = order ? Math.ceil(Math.log2(Math.max(1, masks.length * maxLength))) : undefined;
    advantages = whiteningBounds(library, before, raw, masks, precision, depth);
  }
  // verl re-masks its REINFORCE++ advantages: exact zeros there.
  if (library === "verl" && estimator === "reinforce_pp") {
    advantages = advantages.map((row, i) => row.map((e, t) => e * masks[i][t]));
  }
  return {
    get tokenLevelRewards() {
      return tokenLevelRewardsOf();
    },
    returns,
    advantages,
    rewardIndex: rewardIndex.map(() => 0),
  };
}

/**
 * verl's REINFORCE++ as batched scans: each cut segment scanned on its own, left-padded to its
 * width (the chunks start at its last token, as when scanned alone). The segments' magnitudes are
 * the cut recursion's own, so the bound of a token counts only the rewards that reach it.
 */
function segmentBounds(
  magnitudes: Float64Array[],
  masks: ArrayLike<number>[],
  gamma: number,
  rounding: ScanRounding,
): Float64Array[] {
  const out = magnitudes.map((row) => new Float64Array(row.length));
  for (const { row, start, length } of cutSegments(masks)) {
    const width = segmentWidth(length);
    const padded = new Float64Array(width);
    padded.set(magnitudes[row].subarray(start, start + length), width - length);
    out[row].set(scanErrorBound({ magnitudes: padded }, gamma, rounding).subarray(width - length), start);
  }
  return out;
}

/**
 * verl's GAE as batched scans: the mask-1 tokens' residual magnitudes side by side, right-padded
 * to the batch's most mask-1 tokens (chunks align to that length), scanned as plain GAE; a mask-0
 * token takes the bound of the next mask-1 token's advantage, or is exactly 0 when none follows.
 */
function compactedBound(
  magnitudes: Float64Array,
  mask: ArrayLike<number>,
  discount: number,
  rounding: ScanRounding,
  width: number,
): Float64Array {
  const positions = unmaskedPositions(mask);
  const compacted = new Float64Array(width);
  positions.forEach((p, j) => {
    compacted[j] = magnitudes[p];
  });
  const bound = scanErrorBound({ magnitudes: compacted }, discount, rounding);
  const next = nextUnmaskedIndex(mask);
  return Float64Array.from(next, (j) => (j < 0 ? 0 : bound[j]));
}

function maxUnmasked(masks: ArrayLike<number>[]): number {
  return masks.reduce((most, mask) => Math.max(most, unmaskedPositions(mask).length), 0);
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
  pairwiseDepth?: number,
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
  let meanError: number;
  let sigmaError: number;
  let rstdError: number;
  if (pairwiseDepth === undefined) {
    meanError = maxError + 2 * u * (sumAbs / n) + eta;
    // Statistics are summed in float64 (n roundings of a²) and the variance rounded once.
    const varianceRounding = (2 * n * UNIT_ROUNDOFF.float64 * sumSquares) / divisor + u * scaled;
    sigmaError = Math.sqrt(sumErrorSquares / divisor) + varianceRounding / (2 * sigma);
    rstdError = sigmaError / (sigma - sigmaError) + 2 * u;
  } else {
    // float32 pairwise sums of depth h: each term passes h additions, so Σ is off by h·u·Σ|terms|.
    // The mean: that sum, the divisor rounded (N + 1e-8 for verl) and the division: (h + 3)·u.
    const meanRounding = (pairwiseDepth + 3) * u * (sumAbs / n);
    meanError = maxError + meanRounding + eta;
    // Σ(a − μ̂)²·m: a − μ̂ and its square (3u), the sum (h·u), then one multiply by the divisor's
    // float32 reciprocal factor (2u); a mean off by δ raises the variance by n·δ²/divisor, so σ by
    // at most δ·√(n/divisor). Then var + ε (or max) rounds once more.
    const varianceRounding = (pairwiseDepth + 5) * u * variance + u * scaled + eta;
    sigmaError =
      Math.sqrt(sumErrorSquares / divisor) + meanRounding * Math.sqrt(n / divisor) + varianceRounding / (2 * sigma);
    // rsqrt is within 2 ulp on WebGPU (WGSL inverseSqrt), and its result is rounded: 4u.
    rstdError = sigmaError / (sigma - sigmaError) + 4 * u;
  }
  const ill = !(sigmaError < sigma / 2);
  return advantages.map((row, i) =>
    row.map((a, t) => {
      if (ill) return Number.POSITIVE_INFINITY;
      const shifted = (errors[i][t] + meanError) / sigma;
      const normalized = Math.abs(a - mean) / sigma;
      return shifted * (1 + rstdError) + normalized * rstdError + 2 * u * (normalized + shifted) + eta;
    }),
  );
}
