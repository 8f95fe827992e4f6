import { SUBNORMAL_STEP, UNIT_ROUNDOFF } from "../errorBound";
import type { KlLossType } from "./settings";

/**
 * slime's `compute_approx_kl` in float64, on log-probs that are float32 values: `x = log_probs −
 * ref`; k1 = x, k2 = x²/2, k3 (and low_var_kl, clamped to ±10) = e^(−x) − 1 + x.
 */
export function approxKl(
  logProbs: ArrayLike<number>,
  ref: ArrayLike<number>,
  type: KlLossType,
  out = new Float64Array(logProbs.length),
): Float64Array {
  for (let t = 0; t < out.length; t++) out[t] = klOf(logProbs[t] - ref[t], type);
  return out;
}

/** approxKl of one token, whose log-prob difference is `x`. */
export function klOf(x: number, type: KlLossType): number {
  if (type === "k1") return x;
  if (type === "k2") return (x * x) / 2;
  const k = Math.exp(-x) - 1 + x;
  return type === "low_var_kl" ? Math.min(10, Math.max(-10, k)) : k;
}

/**
 * How far torch's float32 KL may be from approxKl: the difference `x` rounded once (u·|x|), then
 * k1 nothing more; k2 the square and the halving (2u·x², generous for x² rounding and its input
 * error); k3 the input error through the slope |1 − e^(−x)|, exp within 2 ulp, and the two
 * subtractions. Clamping (low_var_kl) never increases an error.
 */
export function klErrorBound(
  logProbs: ArrayLike<number>,
  ref: ArrayLike<number>,
  type: KlLossType,
  out = new Float64Array(logProbs.length),
): Float64Array {
  for (let t = 0; t < out.length; t++) out[t] = klErrorBoundOf(logProbs[t] - ref[t], type);
  return out;
}

/** klErrorBound of one token, whose log-prob difference is `x`. */
export function klErrorBoundOf(x: number, type: KlLossType): number {
  const u = UNIT_ROUNDOFF.float32;
  const eta = SUBNORMAL_STEP.float32;
  const ax = Math.abs(x);
  if (type === "k1") return u * ax + eta;
  if (type === "k2") return 2.5 * u * x * x + eta;
  const e = Math.exp(-x);
  const k = Math.abs(e - 1 + x);
  return (
    u * ax * Math.abs(1 - e) * (1 + 4 * u) + 3 * u * e + u * Math.abs(e - 1) + u * (Math.abs(e - 1) + ax + k) + 3 * eta
  );
}
