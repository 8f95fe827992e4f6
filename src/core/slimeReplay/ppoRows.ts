import { DEFAULT_CHUNK_SIZE } from "../chunkedScan";
import { POWER_ULPS, SUBNORMAL_STEP, UNIT_ROUNDOFF } from "../errorBound";
import { type RowArena, rowOf } from "./rowArena";

/**
 * ppo's float64 reference for one sample, one backward loop with no per-token rows between the steps:
 * the token rewards `kl·(−β)` (the reward added at `rewardAt`), `δ_t = (r_t + γ·V_{t+1}) − V_t`
 * (V_T = 0), `A_t = δ_t + (γλ)·A_{t+1}` and `returns = A + V`, each value by the same operations in
 * the same order as vanillaGae (ALGORITHM.md §c.2), so the same bits. Null where a token reward, a
 * value or a residual is not finite: vanillaGae then names it (or carries it, where non-finite
 * values are allowed, to the same values).
 */
export function ppoReferenceRow(
  kl: Float64Array,
  values: ArrayLike<number>,
  reward: number,
  rewardAt: number,
  klCoef: number,
  gamma: number,
  lambd: number,
  arena?: RowArena,
): { advantages: Float64Array; returns: Float64Array } | null {
  const L = kl.length;
  const advantages = rowOf(arena, L);
  const returns = rowOf(arena, L);
  const minusBeta = -klCoef;
  const d = gamma * lambd;
  let running = 0;
  let finite = true;
  for (let t = L - 1; t >= 0; t--) {
    let r = kl[t] * minusBeta;
    if (t === rewardAt) r += reward;
    const v = values[t];
    const delta = t + 1 < L ? r + gamma * values[t + 1] - v : r + gamma * 0 - v;
    finite = finite && Number.isFinite(r) && Number.isFinite(v) && Number.isFinite(delta);
    running = delta + d * running;
    advantages[t] = running;
    returns[t] = running + v;
  }
  return finite ? { advantages, returns } : null;
}

/**
 * ppo's float32 error bounds for one sample, one backward loop: conventionErrorBounds' bound for
 * slime's chunked GAE (chunk 128, scanned at the padded batch's length `scanLength`) and its
 * returns' bound, then the stored KL's own error (`klError`, none where null) carried through the
 * scan and added to both, as replayBounds does, each value by the same operations in the same
 * order (the same bits). `beta` is |kl_coef|, `discount` γλ; not for discount 0 (the scan's
 * identity branch).
 */
export function ppoBoundRows(
  kl: ArrayLike<number>,
  values: ArrayLike<number>,
  reward: number,
  rewardAt: number,
  klError: ArrayLike<number> | null,
  beta: number,
  gamma: number,
  discount: number,
  scanLength: number,
  arena?: RowArena,
): { advantages: Float64Array; returns: Float64Array } {
  const u = UNIT_ROUNDOFF.float32;
  const eta = SUBNORMAL_STEP.float32;
  const u64 = UNIT_ROUNDOFF.float64;
  const L = kl.length;
  const T = Math.max(scanLength, L);
  const advantages = rowOf(arena, L);
  const returns = rowOf(arena, L);
  const absGamma = Math.abs(gamma);
  const rewardMagnitude = Math.abs(reward);
  const rounded = Math.fround(discount);
  const d = Math.max(Math.abs(discount), Math.abs(rounded));
  const discountError = Math.abs(discount - rounded);
  const C = Math.max(1, Math.min(DEFAULT_CHUNK_SIZE, T));
  // conventionErrorBounds: 5 roundings of a token reward, 3 of the residual (scanErrorBound's input).
  const localCoefficient = 5 + 3 + C + POWER_ULPS;
  const carryCoefficient = POWER_ULPS + 2;
  let A = 0;
  let D = 0;
  let R = 0;
  let W = 0;
  let chainAtChunkEnd = 0;
  let chainFactor = 1;
  let carried = 0;
  for (let i = T - L; i < T; i++) {
    const t = T - 1 - i;
    let token = beta * Math.abs(kl[t]);
    if (t === rewardAt) token += rewardMagnitude;
    const next = t + 1 < L ? Math.abs(values[t + 1]) : 0;
    const value = Math.abs(values[t]);
    const x = Math.abs(token + absGamma * next + value);
    D = A + d * D;
    A = x + d * A;
    R += x;
    W = A + d * W;
    if (i % C === 0) chainFactor = 1;
    chainFactor *= d;
    const K = A + chainFactor * chainAtChunkEnd;
    if (i % C === C - 1) chainAtChunkEnd = K;
    const reference = u64 * A + 2 * u64 * W;
    const bound =
      localCoefficient * u * A + carryCoefficient * u * K + discountError * D + eta * (R + 3 * (i + 2)) + reference;
    // magnitudeScan of the same row is A itself (the same d, the same sums).
    const returnBound = bound * (1 + u) + u * A + 2 * u * value + eta;
    carried = Math.abs(beta * (klError ? klError[t] : 0) * 1) + d * carried;
    advantages[t] = bound + carried;
    returns[t] = returnBound + carried;
  }
  return { advantages, returns };
}
