import { type Batch, type FloatArray, roundingOf, zerosLike } from "../batch";
import { chunkedDiscountedReturns, DEFAULT_CHUNK_SIZE } from "../chunkedScan";
import { chunkedGae, vanillaGae } from "../gae";
import { padRight, trimRow } from "../reinforcePP";
import { serialDiscountedReturns } from "../serialScan";

/**
 * The scans behind each library's estimators, per ragged batch. slime's go through the chunked
 * scan on the right-padded batch; OpenRLHF's and verl's are the serial loops those libraries run,
 * each with its own treatment of mask-0 tokens.
 */

/** slime: one chunked scan over the padded batch, no reset at mask-0 tokens. */
export function slimeReturns<A extends FloatArray>(tokens: A[], gamma: number): A[] {
  if (tokens.length === 0) return [];
  const { returns } = chunkedDiscountedReturns(padRight(tokens, tokens[0]), gamma, { chunkSize: DEFAULT_CHUNK_SIZE });
  return tokens.map((row, b) => trimRow(returns, b, row.length));
}

/** slime `get_advantages_and_returns_batch`: chunked GAE on the zero-padded batch, no mask. */
export function slimeGae<A extends FloatArray>(tokens: A[], values: A[], gamma: number, lambd: number) {
  if (tokens.length === 0) return { advantages: [] as A[], returns: [] as A[] };
  const rewards = padRight(tokens, tokens[0]);
  const paddedValues = padRight(values, tokens[0]);
  const result = chunkedGae(rewards, paddedValues, gamma, lambd, { chunkSize: DEFAULT_CHUNK_SIZE });
  return {
    advantages: tokens.map((row, b) => trimRow(result.advantages, b, row.length)),
    returns: tokens.map((row, b) => trimRow(result.returns, b, row.length)),
  };
}

/** OpenRLHF `get_cumulative_returns`: `G_t = m_t·r_t + γ·G_{t+1}`, the return flows through holes. */
export function openrlhfReturns<A extends FloatArray>(tokens: A[], masks: ArrayLike<number>[], gamma: number): A[] {
  return tokens.map((r, i) => serialDiscountedReturns(asRow(masked(r, masks[i])), gamma).data);
}

/** verl REINFORCE++: `G_t = r_t + γ·c`, then `c = G_t·m_t`: a mask-0 token cuts the carry. */
export function verlReturns<A extends FloatArray>(tokens: A[], masks: ArrayLike<number>[], gamma: number): A[] {
  return tokens.map((r, i) => {
    const round = roundingOf(r);
    const g = round(gamma);
    const out = zerosLike(r, r.length);
    let carry = 0;
    for (let t = r.length - 1; t >= 0; t--) {
      out[t] = round(r[t] + round(g * carry));
      carry = out[t] * masks[i][t];
    }
    return out;
  });
}

/** OpenRLHF GAE: rewards and values masked to 0 first, then plain GAE; returns = A + m·V. */
export function openrlhfGae<A extends FloatArray>(
  tokens: A[],
  values: A[],
  masks: ArrayLike<number>[],
  gamma: number,
  lambd: number,
) {
  const results = tokens.map((r, i) =>
    vanillaGae(asRow(masked(r, masks[i])), asRow(masked(values[i], masks[i])), gamma, lambd),
  );
  return { advantages: results.map((g) => g.advantages.data), returns: results.map((g) => g.returns.data) };
}

/** `x·m` elementwise (exact for a 0/1 mask). */
function masked<A extends FloatArray>(x: A, mask: ArrayLike<number>): A {
  return x.map((value, t) => value * mask[t]) as A;
}

function asRow<A extends FloatArray>(data: A): Batch<A> {
  return { rows: 1, cols: data.length, data };
}

/**
 * verl GAE, "skip observation tokens": on a mask-0 token its own TD error is dropped and the next
 * value and running advantage are carried over unchanged. Returns = A + V (unmasked).
 */
export function verlGae<A extends FloatArray>(
  tokens: A[],
  values: A[],
  masks: ArrayLike<number>[],
  gamma: number,
  lambd: number,
) {
  const advantages: A[] = [];
  const returns: A[] = [];
  tokens.forEach((r, i) => {
    const round = roundingOf(r);
    const g = round(gamma);
    const gl = round(gamma * lambd);
    const m = masks[i];
    const v = values[i];
    const adv = zerosLike(r, r.length);
    const ret = zerosLike(r, r.length);
    let nextValue = 0;
    let last = 0;
    for (let t = r.length - 1; t >= 0; t--) {
      const delta = round(round(r[t] + round(g * nextValue)) - v[t]);
      const candidate = round(delta + round(gl * last));
      if (m[t] === 1) {
        nextValue = v[t];
        last = candidate;
      }
      adv[t] = last;
      ret[t] = round(last + v[t]);
    }
    advantages.push(adv);
    returns.push(ret);
  });
  return { advantages, returns };
}
