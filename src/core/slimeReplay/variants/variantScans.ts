/**
 * Float64 discounted scans over one response, each with the one change a variant makes. A scan
 * takes the row and its discount and returns `G_t = x_t + d·G_{t+1}` (or what the variant does instead).
 */
export type RowScan = (row: Float64Array, discount: number) => Float64Array;

/** The exact serial scan (slime's semantics). */
export const serialScan: RowScan = (row, d) => {
  const out = new Float64Array(row.length);
  let running = 0;
  for (let t = row.length - 1; t >= 0; t--) {
    running = row[t] + d * running;
    out[t] = running;
  }
  return out;
};

/**
 * GAE over one response with V after the last token 0: `δ_t = r_t + γ·V_{t+1} − V_t`,
 * A = scan(δ, γλ), returns = A + V; `round` applied after each operation outside the scan
 * (identity in float64, bf16 for a bf16 run).
 */
export function gaeRow(
  rewards: Float64Array,
  values: ArrayLike<number>,
  gamma: number,
  lambd: number,
  scan: RowScan,
  round: (x: number) => number = (x) => x,
): { advantages: Float64Array; returns: Float64Array } {
  const L = rewards.length;
  const g = round(gamma);
  const deltas = rewards.map((r, t) => round(round(r + round(g * (t + 1 < L ? values[t + 1] : 0))) - values[t]));
  const advantages = scan(deltas, gamma * lambd);
  return { advantages, returns: advantages.map((a, t) => round(a + values[t])) };
}

/** How a chunk's carry enters it: slime's d^(k+1), or the two known mistakes. */
export type CarryRule = "exact" | "mispowered" | "dropped";

/**
 * slime's `chunked_discounted_returns` on one row of a right-padded batch, in float64, with a
 * carry rule. Chunks of C are cut on the time-reversed row padded to `paddedLength`, so in original
 * time a chunk starts (reversed) at t = paddedLength − 1 − c·C. Within a chunk the local scan
 * restarts at 0; the value carried in from the previous chunk enters position k of the chunk
 * times d^(k+1) (exact), d^k (mispowered) or not at all (dropped). O(T).
 */
export function chunkedRowScan(
  row: Float64Array,
  d: number,
  paddedLength: number,
  rule: CarryRule,
  chunkSize = 128,
): Float64Array {
  const L = row.length;
  const out = new Float64Array(L);
  let local = 0;
  let carryIn = 0;
  let power = 1;
  for (let t = L - 1; t >= 0; t--) {
    const k = (paddedLength - 1 - t) % chunkSize;
    if (k === 0) {
      // The carry is the previous chunk's last value (0 when only padding came before).
      carryIn = t + 1 < L ? out[t + 1] : 0;
      local = 0;
      power = 1;
    }
    local = row[t] + d * local;
    const carryPower = rule === "mispowered" ? power : power * d;
    out[t] = rule === "dropped" ? local : local + carryPower * carryIn;
    power *= d;
  }
  return out;
}

/**
 * verl's REINFORCE++ loop before its PR #6376 (and #7300): `running = x_t + γ·running`, stored,
 * then `running *= mask_t`, so the reward-to-go restarts at every mask-0 token.
 */
export function restartingScan(mask: ArrayLike<number>): RowScan {
  return (row, d) => {
    const out = new Float64Array(row.length);
    let running = 0;
    for (let t = row.length - 1; t >= 0; t--) {
      running = row[t] + d * running;
      out[t] = running;
      running *= mask[t];
    }
    return out;
  };
}
