import { lastUnmasked } from "../conventions/tokenRewards";
import { SUBNORMAL_STEP, UNIT_ROUNDOFF } from "../errorBound";
import { magnitudeScan } from "../outputBounds";
import { EquationSet, type LeastSquaresFit } from "./leastSquares";
import { equationTag, type KeptFit, type RobustFit, robustFit, solveKept } from "./robustFit";

/**
 * One sample's stored numbers as the fits read them: the reward as slime used it (float32), the
 * loss mask, the stored KL (zeros when the dump has none), the stored returns, and the critic's
 * values for ppo. Every array has the response's length (the caller drops samples that do not).
 */
export interface FitSample {
  reward: number;
  mask: ArrayLike<number>;
  kl: ArrayLike<number>;
  returns: ArrayLike<number>;
  values?: ArrayLike<number>;
}

const u = UNIT_ROUNDOFF.float32;
/** float32's absolute error near the subnormal range, a few roundings of 2⁻¹⁴⁹ for each of a chunk's additions. */
const eta = 256 * SUBNORMAL_STEP.float32;

/**
 * A fit weighted by the scan's own error scale, which depends on the unknowns: the chunked float32
 * scan's error at token t is a few roundings of the magnitude scan Σ_k d^(k−t)·|x_k| (its partial
 * sums), not of |G_t|, which can be small after a cancellation. The first pass takes the largest
 * values (discounts 1, β 1), the next two the estimates of the pass before.
 */
function reweighted(
  build: (guess: number[]) => EquationSet,
  first: number[],
  discounts: boolean[],
  excluded: ReadonlySet<number>,
): KeptFit {
  let kept = solveKept(build(first), excluded);
  for (let pass = 0; pass < 2; pass++) {
    const guess = kept.fit.theta.map((x, k) => {
      if (!Number.isFinite(x)) return first[k];
      return discounts[k] ? Math.min(1, Math.abs(x)) : Math.abs(x);
    });
    kept = solveKept(build(guess), excluded);
  }
  return kept;
}

/** Every sample's tokens: the most equations a fit can have, so its set never grows. */
function tokenCount(samples: FitSample[]): number {
  let n = 0;
  for (const s of samples) n += s.returns.length;
  return Math.max(1, n);
}

/** |x| with a non-finite value counted as 0 (its own equations are left out). */
function magnitude(x: number): number {
  return Number.isFinite(x) ? Math.abs(x) : 0;
}

/**
 * REINFORCE++ returns `G_t = γ·G_{t+1} − β·kl_t·m_t (+ R at the last mask-1 token)`, G_L = 0, on
 * every token: unknowns θ = [γ, β] (γ held at fixedGamma when given). Each equation's noise scale is float32's rounding of its terms
 * and of the scan's partial sums (reweighted). A token whose terms are all exactly zero (after the
 * last trainable token) says nothing and is left out.
 */
export function reinforcePPFit(samples: FitSample[], fixedGamma?: number): RobustFit {
  const build = ([fitGamma, beta]: number[]) => {
    const gamma = fixedGamma ?? fitGamma;
    const set = new EquationSet(2, tokenCount(samples));
    const columns = [0, 0];
    for (const [i, s] of samples.entries()) {
      const last = lastUnmasked(s.mask);
      if (last < 0) continue;
      const L = s.returns.length;
      const rewards = new Float64Array(L);
      for (let t = 0; t < L; t++)
        rewards[t] = beta * magnitude(s.kl[t]) * s.mask[t] + (t === last ? magnitude(s.reward) : 0);
      const partial = magnitudeScan({ magnitudes: rewards }, gamma);
      for (let t = 0; t < L; t++) {
        const g = s.returns[t];
        const next = t + 1 < L ? s.returns[t + 1] : 0;
        const reward = t === last ? s.reward : 0;
        const penalty = -s.kl[t] * s.mask[t];
        if (g === 0 && next === 0 && reward === 0 && penalty === 0) continue;
        const nextPartial = t + 1 < L ? partial[t + 1] : 0;
        const scale = partial[t] + gamma * nextPartial + Math.abs(g) + Math.abs(next) + Math.abs(reward);
        const tag = equationTag(i, t);
        columns[0] = fixedGamma === undefined ? next : 0;
        columns[1] = penalty;
        const known = fixedGamma === undefined ? 0 : fixedGamma * next;
        set.add(fixedGamma === undefined ? g - reward : g - reward - known, columns, u * scale + eta, tag);
      }
    }
    return set;
  };
  return robustFit((excluded) => reweighted(build, [1, 1], [true, false], excluded));
}

/** REINFORCE++-baseline `A_t = R − β·kl_t` (KL not masked): θ = [β]. */
export function baselineFit(samples: FitSample[]): RobustFit {
  const set = new EquationSet(1, tokenCount(samples));
  const columns = [0];
  for (const [i, s] of samples.entries()) {
    for (let t = 0; t < s.returns.length; t++) {
      const a = s.returns[t];
      columns[0] = -s.kl[t];
      set.add(a - s.reward, columns, u * (Math.abs(a) + Math.abs(s.reward)) + eta, equationTag(i, t));
    }
  }
  return robustFit((excluded) => solveKept(set, excluded));
}

/**
 * ppo's returns `ret_t = A_t + V_t` with `A_t = δ_t + μ·A_{t+1}`, `δ_t = r_t + γ·V_{t+1} − V_t`:
 * `ret_t = −β·kl_t + γ·V_{t+1} + μ·(ret_{t+1} − V_{t+1}) (+ R at the reward's token)`, V_L = ret_L = 0.
 * θ = [β, γ, μ] with μ = γλ (γ or μ held at a given value: its column is then zero). The noise scale covers the float32 roundings of A (the GAE scan's
 * partial sums of |δ|, reweighted), V, ret and δ.
 */
export function ppoFit(
  samples: FitSample[],
  rewardAt: number[],
  fixed: { gamma?: number; mu?: number } = {},
): RobustFit {
  const build = ([beta, fitGamma, fitMu]: number[]) => {
    const gamma = fixed.gamma ?? fitGamma;
    const mu = fixed.mu ?? fitMu;
    const set = new EquationSet(3, tokenCount(samples));
    const columns = [0, 0, 0];
    samples.forEach((s, i) => {
      const values = s.values as ArrayLike<number>;
      const L = s.returns.length;
      const deltas = new Float64Array(L);
      for (let t = 0; t < L; t++)
        deltas[t] =
          beta * magnitude(s.kl[t]) +
          (t === rewardAt[i] ? magnitude(s.reward) : 0) +
          gamma * (t + 1 < L ? magnitude(values[t + 1]) : 0) +
          magnitude(values[t]);
      const partial = magnitudeScan({ magnitudes: deltas }, mu);
      for (let t = 0; t < L; t++) {
        const ret = s.returns[t];
        const v = values[t];
        const nextV = t + 1 < L ? values[t + 1] : 0;
        const nextA = t + 1 < L ? s.returns[t + 1] - nextV : 0;
        const nextPartial = t + 1 < L ? partial[t + 1] : 0;
        const reward = t === rewardAt[i] ? s.reward : 0;
        const scale =
          partial[t] +
          mu * nextPartial +
          Math.abs(ret) +
          Math.abs(v) +
          Math.abs(nextV) +
          Math.abs(nextA) +
          Math.abs(reward);
        // A held setting's term moves to the known side and its column is zero.
        const known = (fixed.gamma ?? 0) * nextV + (fixed.mu ?? 0) * nextA;
        columns[0] = -s.kl[t];
        columns[1] = fixed.gamma === undefined ? nextV : 0;
        columns[2] = fixed.mu === undefined ? nextA : 0;
        set.add(ret - reward - known, columns, u * scale + eta, equationTag(i, t));
      }
    });
    return set;
  };
  return robustFit((excluded) => reweighted(build, [1, 1, 1], [false, true, true], excluded));
}

/**
 * grpo, gspo and cispo: the (group-normalised) reward on every token, rounded to float32 once.
 * True when every finite stored return is exactly its sample's float32 reward (any KL penalty,
 * even a subnormal one, would show).
 */
export function isBroadcastFit(samples: FitSample[]): boolean {
  let any = false;
  for (const s of samples) {
    for (let t = 0; t < s.returns.length; t++) {
      const g = s.returns[t];
      if (!Number.isFinite(g)) continue;
      if (g !== s.reward) return false;
      any = true;
    }
  }
  return any;
}

/** χ²/ν: how far the residuals are, on average, from the assumed float32 noise (≥ 1 is as expected or worse). */
export function reducedChiSquare(fit: LeastSquaresFit): number {
  const solved = fit.solved.filter(Boolean).length;
  const dof = fit.equations - solved;
  return dof > 0 ? fit.chiSquare / dof : 0;
}

/**
 * θ_k ± a bound: 3σ from the fit's covariance with the equations' float32 rounding scales as the
 * noise, σ scaled up by √(χ²/ν) when the residuals are larger than those scales; or, when larger,
 * the shift that errors of that size would cause if they did not average out at all (the chunked
 * float32 scan's errors are correlated: its power table and carries are shared by many tokens,
 * and on real dumps the estimate sits several σ from the truth). Plus the float32 rounding slime
 * applies to the setting itself (it computes with fl32(γ), fl32(β)), which no data can see through.
 */
export function estimateOf(fit: LeastSquaresFit, k: number): { value: number; uncertainty: number } {
  const value = fit.theta[k];
  return { value, uncertainty: spread(fit, fit.covariance[k][k], fit.worstCase[k]) + 2 * u * Math.abs(value) };
}

/**
 * λ = μ/γ from θ = [β, γ, μ]: its variance and worst case propagated to first order, and never
 * less than the widest ratio of the two intervals (first order fails when γ is uncertain). Null
 * when γ's interval comes within half of 0: the ratio is then unbounded in practice.
 */
export function ratioEstimate(fit: LeastSquaresFit): { value: number; uncertainty: number } | null {
  const gamma = estimateOf(fit, 1);
  const mu = estimateOf(fit, 2);
  if (!(gamma.uncertainty < 0.5 * Math.abs(gamma.value))) return null;
  const lambd = mu.value / gamma.value;
  const c = fit.covariance;
  const variance = (c[2][2] + lambd * lambd * c[1][1] - 2 * lambd * c[1][2]) / gamma.value ** 2;
  const worst = (fit.worstCase[2] + Math.abs(lambd) * fit.worstCase[1]) / Math.abs(gamma.value);
  const corners = [-1, 1].flatMap((a) =>
    [-1, 1].map((b) => (mu.value + a * mu.uncertainty) / (gamma.value + b * gamma.uncertainty)),
  );
  const interval = Math.max(...corners.map((x) => Math.abs(x - lambd)));
  const firstOrder = spread(fit, variance, worst) + 4 * u * Math.abs(lambd);
  return { value: lambd, uncertainty: Math.max(firstOrder, interval) };
}

function spread(fit: LeastSquaresFit, variance: number, worstCase: number): number {
  const noise = Math.sqrt(Math.max(1, reducedChiSquare(fit)));
  return noise * Math.max(3 * Math.sqrt(Math.max(0, variance)), worstCase);
}
