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

const finite = Number.isFinite;

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
  // Each field read once, and the equations' y and coefficients once (as in ppoFit): only their
  // noise scales depend on the pass's guess.
  const rows = samples.map((s) => {
    const mask = s.mask;
    return { reward: s.reward, mask, kl: s.kl, returns: s.returns, last: lastUnmasked(mask) };
  });
  const n = tokenCount(samples);
  const y = new Float64Array(n);
  const columns = [new Float64Array(n), new Float64Array(n)];
  const tags = new Float64Array(n);
  // Each equation's sample and token, for its noise scale.
  const tokenOf = new Int32Array(n);
  const sampleOf = new Int32Array(n);
  let valid: Uint8Array | null = null;
  let count = 0;
  rows.forEach(({ reward: R, mask, kl, returns, last }, i) => {
    if (last < 0) return;
    const L = returns.length;
    for (let t = 0; t < L; t++) {
      const g = returns[t];
      const next = t + 1 < L ? returns[t + 1] : 0;
      const reward = t === last ? R : 0;
      const penalty = -kl[t] * mask[t];
      if (g === 0 && next === 0 && reward === 0 && penalty === 0) continue;
      const e = count++;
      const known = fixedGamma === undefined ? 0 : fixedGamma * next;
      y[e] = fixedGamma === undefined ? g - reward : g - reward - known;
      columns[0][e] = fixedGamma === undefined ? next : 0;
      columns[1][e] = penalty;
      tags[e] = equationTag(i, t);
      tokenOf[e] = t;
      sampleOf[e] = i;
      if (!(finite(y[e]) && finite(columns[0][e]) && finite(columns[1][e]))) {
        valid ??= new Uint8Array(n).fill(1);
        valid[e] = 0;
      }
    }
  });
  const taken = (a: Float64Array) => a.subarray(0, count);
  const equations = { y: taken(y), columns: columns.map(taken), tags: taken(tags) };
  const validTaken = (valid as Uint8Array | null)?.subarray(0, count) ?? null;
  const build = ([fitGamma, beta]: number[]) => {
    const gamma = fixedGamma ?? fitGamma;
    const sigma = new Float64Array(count);
    let e = 0;
    rows.forEach(({ reward: R, mask, kl, returns, last }, i) => {
      if (last < 0) return;
      const L = returns.length;
      const rewards = new Float64Array(L);
      for (let t = 0; t < L; t++) rewards[t] = beta * magnitude(kl[t]) * mask[t] + (t === last ? magnitude(R) : 0);
      const partial = magnitudeScan({ magnitudes: rewards }, gamma);
      for (; e < count && sampleOf[e] === i; e++) {
        const t = tokenOf[e];
        const g = returns[t];
        const next = t + 1 < L ? returns[t + 1] : 0;
        const reward = t === last ? R : 0;
        const nextPartial = t + 1 < L ? partial[t + 1] : 0;
        const scale = partial[t] + gamma * nextPartial + Math.abs(g) + Math.abs(next) + Math.abs(reward);
        sigma[e] = u * scale + eta;
      }
    });
    return EquationSet.withSigma(equations.y, equations.columns, equations.tags, validTaken, sigma);
  };
  return robustFit((excluded) => reweighted(build, [1, 1], [true, false], excluded));
}

/** REINFORCE++-baseline `A_t = R − β·kl_t` (KL not masked): θ = [β]. */
export function baselineFit(samples: FitSample[]): RobustFit {
  const set = new EquationSet(1, tokenCount(samples));
  const columns = [0];
  for (const [i, s] of samples.entries()) {
    // Each field read once, not per token (a streamed sample's fields are getters).
    const { returns, kl, reward } = s;
    for (let t = 0; t < returns.length; t++) {
      const a = returns[t];
      columns[0] = -kl[t];
      set.add(a - reward, columns, u * (Math.abs(a) + Math.abs(reward)) + eta, equationTag(i, t));
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
  // Each field read once, not per token (a streamed sample's fields are getters), and the equations'
  // y and coefficients once: only their noise scales depend on the pass's guess.
  const rows = samples.map((s) => ({
    reward: s.reward,
    kl: s.kl,
    returns: s.returns,
    values: s.values as ArrayLike<number>,
  }));
  const n = rows.reduce((sum, r) => sum + r.returns.length, 0);
  const y = new Float64Array(n);
  const columns = [new Float64Array(n), new Float64Array(n), new Float64Array(n)];
  const tags = new Float64Array(n);
  let valid: Uint8Array | null = null;
  let e = 0;
  rows.forEach(({ reward: R, kl, returns, values }, i) => {
    const L = returns.length;
    for (let t = 0; t < L; t++, e++) {
      const ret = returns[t];
      const nextV = t + 1 < L ? values[t + 1] : 0;
      const nextA = t + 1 < L ? returns[t + 1] - nextV : 0;
      const reward = t === rewardAt[i] ? R : 0;
      // A held setting's term moves to the known side and its column is zero.
      const known = (fixed.gamma ?? 0) * nextV + (fixed.mu ?? 0) * nextA;
      y[e] = ret - reward - known;
      columns[0][e] = -kl[t];
      columns[1][e] = fixed.gamma === undefined ? nextV : 0;
      columns[2][e] = fixed.mu === undefined ? nextA : 0;
      tags[e] = equationTag(i, t);
      if (!(finite(y[e]) && finite(columns[0][e]) && finite(columns[1][e]) && finite(columns[2][e]))) {
        valid ??= new Uint8Array(n).fill(1);
        valid[e] = 0;
      }
    }
  });
  const longest = rows.reduce((m, r) => Math.max(m, r.returns.length), 0);
  const deltaRow = new Float64Array(longest);
  const partialRow = new Float64Array(longest);
  const build = ([beta, fitGamma, fitMu]: number[]) => {
    const gamma = fixed.gamma ?? fitGamma;
    const mu = fixed.mu ?? fitMu;
    const sigma = new Float64Array(n);
    let e = 0;
    rows.forEach(({ reward: R, kl, returns, values }, i) => {
      const L = returns.length;
      // Every element written before it is read: one pair of rows for the pass, not two fresh rows a sample.
      const deltas = deltaRow.subarray(0, L);
      for (let t = 0; t < L; t++)
        deltas[t] =
          beta * magnitude(kl[t]) +
          (t === rewardAt[i] ? magnitude(R) : 0) +
          gamma * (t + 1 < L ? magnitude(values[t + 1]) : 0) +
          magnitude(values[t]);
      const partial = magnitudeScan({ magnitudes: deltas }, mu, partialRow.subarray(0, L));
      for (let t = 0; t < L; t++, e++) {
        const ret = returns[t];
        const v = values[t];
        const nextV = t + 1 < L ? values[t + 1] : 0;
        const nextA = t + 1 < L ? returns[t + 1] - nextV : 0;
        const nextPartial = t + 1 < L ? partial[t + 1] : 0;
        const reward = t === rewardAt[i] ? R : 0;
        const scale =
          partial[t] +
          mu * nextPartial +
          Math.abs(ret) +
          Math.abs(v) +
          Math.abs(nextV) +
          Math.abs(nextA) +
          Math.abs(reward);
        sigma[e] = u * scale + eta;
      }
    });
    return EquationSet.withSigma(y, columns, tags, valid, sigma);
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
    const { returns, reward } = s;
    for (let t = 0; t < returns.length; t++) {
      const g = returns[t];
      if (!Number.isFinite(g)) continue;
      if (g !== reward) return false;
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
