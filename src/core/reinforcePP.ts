import { type Batch, type FloatArray, roundingOf, zerosLike } from "./batch";
import { type ChunkedScanOptions, type ChunkTrace, chunkedDiscountedReturns } from "./chunkedScan";
import { serialDiscountedReturns } from "./serialScan";
import { checkDiscount, checkFiniteRow, ScanInputError } from "./validation";

/** A ragged REINFORCE++ batch: one outcome reward per sequence, per-token KL and loss masks. */
export interface ReinforcePPBatch<A extends FloatArray = FloatArray> {
  /** Scalar outcome reward of each sequence (length B). */
  rewards: ArrayLike<number>;
  /** Per-token KL of each sequence's response (B arrays of length L_i); their type sets the precision. */
  kl: A[];
  /** Loss masks, 0 or 1 (B arrays of length L_i). */
  lossMasks: ArrayLike<number>[];
}

export interface ReinforcePPResult<A extends FloatArray = FloatArray> {
  returns: A[];
  tokenLevelRewards: A[];
}

export interface ChunkedReinforcePPResult<A extends FloatArray = FloatArray> extends ReinforcePPResult<A> {
  /** The `[B, max L]` right-padded matrix the scan ran over. */
  padded: Batch<A>;
  trace: ChunkTrace<A>;
}

/**
 * Token-level rewards of every sequence, checked in slime's order (§d): `−β·(kl·m)`, then the
 * outcome reward added at the last unmasked token. A sequence with no unmasked token fails with
 * the reference's own assertion text.
 */
export function tokenLevelRewards<A extends FloatArray>(batch: ReinforcePPBatch<A>, klCoef: number): A[] {
  checkDiscount(klCoef, "kl_coef");
  const { rewards, kl, lossMasks } = batch;
  if (kl.length !== rewards.length || lossMasks.length !== rewards.length) {
    throw new ScanInputError(
      `rewards, kl and loss_masks must have one entry per sequence, got ${rewards.length}, ${kl.length} and ${lossMasks.length}`,
    );
  }
  // First every check slime makes on its way through the sequences (shapes, masks, the
  // fully-masked assertion, in order); float32 overflow, which slime never checks, only after.
  const lastUnmasked = kl.map((klRow, i) => {
    const mask = lossMasks[i];
    if (mask.length !== klRow.length) {
      throw new ScanInputError(`kl[${i}] has ${klRow.length} tokens but loss_masks[${i}] has ${mask.length}`);
    }
    checkFiniteRow(klRow, "kl", i);
    if (!Number.isFinite(rewards[i])) {
      throw new ScanInputError(`rewards has a non-finite value at sequence ${i}: ${rewards[i]}`);
    }
    let last = -1;
    for (let t = 0; t < mask.length; t++) {
      const m = mask[t];
      if (m !== 0 && m !== 1) {
        throw new ScanInputError(`loss_masks[${i}] has ${String(m)} at token ${t}; a mask is 0 or 1`);
      }
      if (m === 1) last = t;
    }
    if (last < 0) throw new ScanInputError(`Sequence at index ${i} is fully masked.`, "AssertionError");
    return last;
  });
  const tokens = kl.map((klRow, i) => {
    const round = roundingOf(klRow);
    const coef = round(-klCoef);
    const mask = lossMasks[i];
    const tok = zerosLike(klRow, klRow.length);
    for (let t = 0; t < klRow.length; t++) tok[t] = round(coef * (klRow[t] * mask[t]));
    const last = lastUnmasked[i];
    tok[last] = round(tok[last] + round(rewards[i]));
    return tok;
  });
  // Finite inputs can still overflow float32 (−β·kl, or the reward added on top).
  tokens.forEach((tok, i) => {
    checkFiniteRow(tok, "token-level rewards", i);
  });
  return tokens;
}

/** Right-pads ragged rows with zeros into one `[B, max L]` batch. */
export function padRight<A extends FloatArray>(rows: A[], like: A): Batch<A> {
  const cols = rows.reduce((max, row) => Math.max(max, row.length), 0);
  const data = zerosLike(like, rows.length * cols);
  rows.forEach((row, b) => {
    data.set(row, b * cols);
  });
  return { rows: rows.length, cols, data };
}

/** Row b of a padded batch, cut back to `length` tokens (a copy). */
export function trimRow<A extends FloatArray>(padded: Batch<A>, b: number, length: number): A {
  return padded.data.slice(b * padded.cols, b * padded.cols + length) as A;
}

/**
 * slime's vectorised `get_reinforce_plus_plus_returns`: token rewards per sequence, one scan over
 * the right-padded batch, rows trimmed back. The chunk boundaries follow the padded length, so
 * float32 bits of a sequence depend on the longest one in the batch (§b.4).
 */
export function reinforcePPReturns<A extends FloatArray>(
  batch: ReinforcePPBatch<A>,
  klCoef: number,
  gamma: number,
  options: ChunkedScanOptions = {},
): ChunkedReinforcePPResult<A> {
  checkDiscount(gamma, "gamma");
  const tokens = tokenLevelRewards(batch, klCoef);
  const padded = padRight(tokens, batch.kl[0] ?? (new Float64Array(0) as A));
  const { returns, trace } = chunkedDiscountedReturns(padded, gamma, options);
  return {
    returns: tokens.map((tok, b) => trimRow(returns, b, tok.length)),
    tokenLevelRewards: tokens,
    padded,
    trace,
  };
}

/** The truth the golden files use: each sequence scanned serially on its own, without padding. */
export function serialReinforcePPReturns<A extends FloatArray>(
  batch: ReinforcePPBatch<A>,
  klCoef: number,
  gamma: number,
): ReinforcePPResult<A> {
  checkDiscount(gamma, "gamma");
  const tokens = tokenLevelRewards(batch, klCoef);
  const returns = tokens.map((tok) => serialDiscountedReturns({ rows: 1, cols: tok.length, data: tok }, gamma).data);
  return { returns, tokenLevelRewards: tokens };
}
