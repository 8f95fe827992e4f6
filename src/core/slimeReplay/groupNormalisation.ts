import { SUBNORMAL_STEP, UNIT_ROUNDOFF } from "../errorBound";
import { torchSumDepth } from "./slimeWhitenBound";

/** What `_post_process_rewards` adds to the group's std before dividing (a Python float, cast to float32 by torch). */
export const GROUP_STD_EPSILON = 1e-6;

export interface GroupNormalisation {
  /** The float64 value of each normalised reward. */
  reference: Float64Array;
  /** |slime's float32 value − reference| ≤ bound; Infinity when the float32 result is too ill-conditioned to bound. */
  bound: Float64Array;
}

/**
 * One group of raw rewards normalised as slime's `_post_process_rewards` does for a row of its
 * reshaped tensor: `r − mean(r)`, and with `divideByStd` `(r − mean) / (std(r − mean) + 1e-6)` with
 * torch's Bessel-corrected std. The reference is float64 on the raw rewards as given; a group of one
 * under std normalisation is NaN, as torch's std of one element is (0/0 in the Bessel factor).
 *
 * The bound follows slime's float32 path, first order (as slimeWhitenBounds), each term scaled by the
 * group's own n, so a group of 2 is not held to the slack of a group of 64:
 * - the raw rewards rounded to float32 (`torch.tensor(…, dtype=torch.float)`): u·|x_i|;
 * - the mean: a sum in which each term passes through at most h = min(n−1, torchSumDepth(n))
 *   additions (any summation order), then the division, or torch's multiply by fl(1/n) (2u):
 *   δμ = (u + h·u)·Σ|x|/n + 2u·|μ|;
 * - the centred value `fl(x̂ − μ̂)`: e_i = u·|x_i| + δμ + u·(|c_i| + δμ);
 * - the std of those centred values: the exact std moves by at most ‖e‖₂/√(n−1) (centring is a
 *   projection), and torch's float32 variance (two-pass or Welford, divide by n−1) is off by at most
 *   (2n + h + 8)·u·Σĉ²/(n−1); the square root turns that into min(√δv, δv/σ_lo), plus u for the root;
 * - the denominator `fl(σ̂ + fl(1e-6))`: δd = δσ + |fl(1e-6) − 1e-6| + u·(σ + 1e-6); its relative
 *   effect ρ = δd/(d − δd), unbounded (Infinity) once δd reaches d/2;
 * - the quotient: e_i/d·(1+ρ) + |c_i|/d·ρ + u·(|c_i| + e_i)/d·(1+ρ).
 * The float64 reference's own rounding is added on top (a few u₆₄ per operation, times n).
 */
export function normaliseGroup(raw: ArrayLike<number>, divideByStd: boolean): GroupNormalisation {
  const n = raw.length;
  const u = UNIT_ROUNDOFF.float32;
  const u64 = UNIT_ROUNDOFF.float64;
  const eta = SUBNORMAL_STEP.float32;
  const reference = new Float64Array(n);
  const bound = new Float64Array(n);
  if (n === 0) return { reference, bound };
  let sum = 0;
  let sumAbs = 0;
  for (let i = 0; i < n; i++) {
    sum += raw[i];
    sumAbs += Math.abs(raw[i]);
  }
  const mean = sum / n;
  const h = Math.min(n - 1, torchSumDepth(n));
  const dMean = ((1 + h) * u * sumAbs) / n + 2 * u * Math.abs(mean) + eta;
  const centred = new Float64Array(n);
  const centredError = new Float64Array(n);
  let sumSquares = 0;
  let sumErrorSquares = 0;
  for (let i = 0; i < n; i++) {
    const c = raw[i] - mean;
    centred[i] = c;
    centredError[i] = u * Math.abs(raw[i]) + dMean + u * (Math.abs(c) + dMean) + eta;
    sumSquares += c * c;
    sumErrorSquares += centredError[i] * centredError[i];
  }
  // The float64 reference's own error: its sum and mean (n + 1 roundings) and the subtraction.
  const meanReferenceError = ((n + 2) * u64 * sumAbs) / n;
  if (!divideByStd) {
    for (let i = 0; i < n; i++) {
      reference[i] = centred[i];
      bound[i] = centredError[i] + meanReferenceError + u64 * Math.abs(centred[i]);
    }
    return { reference, bound };
  }
  if (n === 1) {
    // torch's Bessel std of one element is NaN, and so is 0/NaN: the stored value must be NaN too.
    reference[0] = Number.NaN;
    return { reference, bound };
  }
  const sigma = Math.sqrt(sumSquares / (n - 1));
  const d = sigma + GROUP_STD_EPSILON;
  const errorNorm = Math.sqrt(sumErrorSquares);
  const dSigmaInput = errorNorm / Math.sqrt(n - 1);
  const centredNormHigh = Math.sqrt(sumSquares) + errorNorm;
  const dVariance = ((2 * n + h + 8) * u * centredNormHigh * centredNormHigh) / (n - 1) + eta;
  const sigmaLow = Math.max(0, sigma - dSigmaInput);
  const dRoot = sigmaLow > 0 ? Math.min(Math.sqrt(dVariance), dVariance / sigmaLow) : Math.sqrt(dVariance);
  const dSigma = dSigmaInput + dRoot + u * (sigma + dSigmaInput + dRoot);
  const epsilonRounding = Math.abs(Math.fround(GROUP_STD_EPSILON) - GROUP_STD_EPSILON);
  const dDenominator = dSigma + epsilonRounding + u * (sigma + dSigma + GROUP_STD_EPSILON);
  const unbounded = !(dDenominator < d / 2);
  const rho = dDenominator / (d - dDenominator);
  // The reference's std and quotient add a few u₆₄ relative on top of its mean's error.
  const referenceError = (2 * n + 16) * u64;
  for (let i = 0; i < n; i++) {
    const c = centred[i];
    const e = centredError[i];
    reference[i] = c / d;
    bound[i] = unbounded
      ? Number.POSITIVE_INFINITY
      : (e / d) * (1 + rho) +
        (Math.abs(c) / d) * rho +
        (u * (Math.abs(c) + e) * (1 + rho)) / d +
        (meanReferenceError + referenceError * (Math.abs(c) + sigma)) / d +
        eta;
  }
  return { reference, bound };
}
