import { SUBNORMAL_STEP, UNIT_ROUNDOFF } from "../errorBound";

export type NormalizationRead =
  /** `note` when read as normalised though the stored advantages are not the batch's whitening either. */
  | { normalized: boolean; note?: string }
  /** Both readings fit, or nothing could be compared: why. */
  | { normalized: null; reason: string };

const u = UNIT_ROUNDOFF.float32;
const eta = 256 * SUBNORMAL_STEP.float32;
/** A whitened float32 value is within a few roundings of the float64 whitening; this is a generous margin for "it is whitened". */
const WHITEN_MATCH = 1e-4;

/**
 * Whether the stored advantages are the raw ones or slime's `distributed_masked_whiten` of them
 * (mean and Bessel-corrected variance over the mask-1 tokens of the whole batch, every token
 * mapped by `(a − μ)·rsqrt(var + 1e-8)`); advantages that are neither (a NaN included) were
 * normalised too, as slime changes them only by whitening. `raw` is the raw advantage as read from the stored
 * numbers and `rawScale` the size of its own float32 error per token (|returns| for REINFORCE++,
 * |returns| + |values| for ppo's returns − values).
 */
export function readNormalization(
  raw: ArrayLike<number>[],
  advantages: ArrayLike<number>[],
  masks: ArrayLike<number>[],
  rawScale: ArrayLike<number>[],
): NormalizationRead {
  return readNormalizationOfRows({
    count: raw.length,
    raw: (i) => raw[i],
    scale: (i) => rawScale[i],
    advantages: (i) => advantages[i],
    mask: (i) => masks[i],
  });
}

/**
 * readNormalization with each sample's rows read when its turn comes (twice): ppo's `returns −
 * values` and its scale, kept for the batch, were two float64 rows per sample (70 MB at 4.4 M
 * tokens), and a streamed dump's advantages and masks, read for the whole batch before the first
 * pass, were 245 MB of big1024's fields alive at once (its peak).
 */
export function readNormalizationOfRows(rows: {
  count: number;
  raw(i: number): ArrayLike<number>;
  scale(i: number): ArrayLike<number>;
  advantages(i: number): ArrayLike<number>;
  mask(i: number): ArrayLike<number>;
  /** Told each row of the first pass with its mask, while they are read (other sums taken in the same pass). */
  visit?(i: number, raw: ArrayLike<number>, mask: ArrayLike<number>): void;
  /** Told each row of the second pass with its stored advantages, while they are read (other marks made in it). */
  visitAgain?(i: number, raw: ArrayLike<number>, advantages: ArrayLike<number>): void;
}): NormalizationRead {
  // Each pass a function of one row, its running sums carried in `acc` (the same additions in the
  // same order): the loops inline were compiled on the fly (OSR) and thrown away between the passes.
  const acc = new Float64Array(3);
  for (let i = 0; i < rows.count; i++) {
    const raw = rows.raw(i);
    const mask = rows.mask(i);
    sumsRow(acc, raw, mask);
    rows.visit?.(i, raw, mask);
  }
  const [n, sum, sumSquares] = acc;
  const mean = n > 0 ? sum / n : 0;
  let variance = n > 0 ? sumSquares / n - mean * mean : 0;
  if (n >= 2) variance *= n / (n - 1);
  const rstd = 1 / Math.sqrt(Math.max(variance, 0) + 1e-8);
  const read = { compared: 0, isRaw: true, isWhitened: n > 0 };
  for (let i = 0; i < rows.count; i++) {
    const raw = rows.raw(i);
    const advantages = rows.advantages(i);
    compareRow(read, raw, rows.scale(i), advantages, mean, rstd);
    rows.visitAgain?.(i, raw, advantages);
  }
  const { compared, isRaw, isWhitened } = read;
  if (compared === 0) return { normalized: null, reason: "no finite advantage to compare" };
  if (isRaw && !isWhitened) return { normalized: false };
  if (isWhitened && !isRaw) return { normalized: true };
  if (isRaw) {
    return {
      normalized: null,
      reason: "the raw advantages are already whitened (mean 0, variance 1 over the mask-1 tokens): both read the same",
    };
  }
  // slime stores the raw advantages themselves (REINFORCE++ and grpo: the returns' own storage;
  // ppo: returns − values) unless --normalize-advantages whitened them, so advantages that differ
  // from the raw ones anywhere were normalised, even when they are not the batch's exact whitening
  // (a whitening that went wrong is what the verdict and the diagnosis then show).
  return {
    normalized: true,
    note: "normalize_advantages: the stored advantages differ from the raw ones (slime changes them only by whitening) but are not their whitening over the batch either: see the verdict",
  };
}

/** acc += [count, Σx, Σx²] over a row's finite mask-1 tokens. */
function sumsRow(acc: Float64Array, row: ArrayLike<number>, mask: ArrayLike<number>): void {
  let n = acc[0];
  let sum = acc[1];
  let sumSquares = acc[2];
  for (let t = 0; t < row.length; t++) {
    if (mask[t] !== 1 || !Number.isFinite(row[t])) continue;
    n += 1;
    sum += row[t];
    sumSquares += row[t] * row[t];
  }
  acc[0] = n;
  acc[1] = sum;
  acc[2] = sumSquares;
}

/** A row's stored advantages against the raw ones and against their whitening: `read` loses isRaw or isWhitened. */
function compareRow(
  read: { compared: number; isRaw: boolean; isWhitened: boolean },
  row: ArrayLike<number>,
  rawScale: ArrayLike<number>,
  advantages: ArrayLike<number>,
  mean: number,
  rstd: number,
): void {
  let { compared, isRaw, isWhitened } = read;
  for (let t = 0; t < row.length; t++) {
    const a = advantages[t];
    const r = row[t];
    if (!Number.isFinite(r)) continue;
    compared += 1;
    // A NaN or infinite advantage where the raw one is finite is not the raw one: only the
    // whitening (its variance cancelling below 0) makes one.
    if (!Number.isFinite(a)) {
      isRaw = false;
      isWhitened = false;
      continue;
    }
    const error = 4 * u * (Math.abs(r) + rawScale[t]) + eta;
    if (Math.abs(a - r) > error) isRaw = false;
    const whitened = (r - mean) * rstd;
    const allowed = WHITEN_MATCH * (1 + Math.abs(whitened)) + 16 * rstd * (error + u * Math.abs(mean));
    if (Math.abs(a - whitened) > allowed) isWhitened = false;
  }
  read.compared = compared;
  read.isRaw = isRaw;
  read.isWhitened = isWhitened;
}
