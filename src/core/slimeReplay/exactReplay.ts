import { runConvention } from "../conventions/runConvention";
import { byDataParallelRank } from "./replayBounds";
import type { ReplaySample, SlimeSettings } from "./settings";

/** How the stored returns compare, bit for bit, with slime's float32 arithmetic on torch's CPU. */
export interface BitComparison {
  /** Tokens compared. */
  compared: number;
  /** Tokens whose stored float32 is the very value slime's CPU code computes. */
  identical: number;
  /** The largest difference where they differ, in float32 ulps of the stored value. */
  maxUlps: number;
  /** The first differing sample and token, or null. */
  first: { sample: number; token: number } | null;
}

/**
 * The returns as slime's own float32 code computes them on a CPU, bit for bit: core's chunked scan
 * with torch's CPU powers (torchPow) and its GEMM's sequential accumulation, on the float32 token
 * rewards slime forms from the stored KL, each data-parallel rank's samples padded to its longest.
 * Matched bit for bit on every dump written here by slime's code (torch 1.13, CPU). What the rigorous
 * bound cannot see (an edit of a few ulps) this can; a dump written on a GPU sums in another order
 * and may differ by a few ulps without being wrong, so this is reported, never a verdict.
 * Null for the estimators with no scan, and when the stored KL or the critic's values are missing.
 */
export function compareWithSlimeCpu(
  samples: ReplaySample[],
  storedReturns: ArrayLike<number>[],
  settings: SlimeSettings,
): BitComparison | null {
  const estimator =
    settings.advantageEstimator === "reinforce_plus_plus"
      ? "reinforce_pp"
      : settings.advantageEstimator === "ppo" && settings.contextParallelSize === 1
        ? "gae"
        : null;
  if (estimator === null) return null;
  if (samples.some((s) => s.lossMask.length === 0 || (settings.klCoef !== 0 && !s.kl))) return null;
  if (estimator === "gae" && samples.some((s) => !s.values)) return null;
  const out: BitComparison = { compared: 0, identical: 0, maxUlps: 0, first: null };
  for (const rank of byDataParallelRank(samples)) {
    const batch = {
      rewards: rank.map((i) => samples[i].reward),
      kl: rank.map((i) => {
        const kl = samples[i].kl;
        return kl ? new Float32Array(kl) : new Float32Array(samples[i].lossMask.length);
      }),
      lossMasks: rank.map((i) => samples[i].lossMask),
      values: estimator === "gae" ? rank.map((i) => new Float32Array(samples[i].values as Float64Array)) : undefined,
    };
    let returns: Float32Array[];
    try {
      const params = { gamma: settings.gamma, lambd: settings.lambd, klCoef: settings.klCoef, normalize: false };
      returns = runConvention("slime", estimator, batch, params).returns;
    } catch {
      return null;
    }
    rank.forEach((i, j) => {
      const mine = returns[j];
      const stored = storedReturns[i];
      for (let t = 0; t < mine.length; t++) {
        out.compared += 1;
        if (Object.is(mine[t], stored[t])) {
          out.identical += 1;
          continue;
        }
        out.first ??= { sample: i, token: t };
        const ulp = 2 ** (Math.floor(Math.log2(Math.abs(stored[t]) || 2 ** -126)) - 23);
        out.maxUlps = Math.max(out.maxUlps, Math.abs(mine[t] - stored[t]) / ulp);
      }
    });
  }
  return out;
}
