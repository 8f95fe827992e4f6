import { ScanScratch } from "../batch";
import { chunkedDiscountedReturns, DEFAULT_CHUNK_SIZE } from "../chunkedScan";
import { checkConventionInputs } from "../conventions/runConvention";
import { conventionTokenRewards } from "../conventions/tokenRewards";
import { discountPowers } from "../discountPowers";
import { chunkedGae } from "../gae";
import { lengthOf, tokensOf } from "./fieldLengths";
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
  const scan: "gae" | "reinforce_pp" = estimator;
  // Lengths and presence off FIELD_LENGTHS: a streamed dump reads no field to say them.
  if (samples.some((s) => tokensOf(s) === 0 || (settings.klCoef !== 0 && lengthOf(s, "kl") === undefined))) return null;
  if (estimator === "gae" && samples.some((s) => lengthOf(s, "values") === undefined)) return null;
  const out: BitComparison = { compared: 0, identical: 0, maxUlps: 0, first: null };
  const { gamma, lambd, klCoef } = settings;
  // Every row's scan lent the same arrays: each row is compared before the next is scanned.
  const scratch = new ScanScratch();
  const params = { gamma, lambd, klCoef, normalize: false };
  for (const wholeRank of byDataParallelRank(samples)) {
    // The rank's longest row sets every row's padding; its rows are scanned a window at a time, so
    // a dump read from its file (a 1.5 GB one) holds a window's float32 copies, not the rank's.
    const cols = wholeRank.reduce((max, i) => Math.max(max, tokensOf(samples[i])), 0);
    for (const rank of windowsOf(wholeRank, samples)) {
      if (!compareRows(rank, cols)) return null;
    }
  }
  return out;

  function compareRows(rank: number[], cols: number): boolean {
    const batch = {
      rewards: rank.map((i) => samples[i].reward),
      kl: rank.map((i) => {
        const kl = samples[i].kl;
        // Read, never written: the stored float32 KL as it is (a copy was 17.7 MB at 4.4 M tokens).
        return kl ? float32Of(kl) : new Float32Array(tokensOf(samples[i]));
      }),
      lossMasks: rank.map((i) => samples[i].lossMask),
      // The stored float32 values as they are (nothing here writes them); other types rounded to float32.
      values: scan === "gae" ? rank.map((i) => float32Of(samples[i].values as ArrayLike<number>)) : undefined,
    };
    try {
      // What runConvention("slime", …) checks and forms before its scan, on the rank's rows.
      checkConventionInputs(scan, batch, params);
      const tokens = conventionTokenRewards("slime", scan, batch, params).tokenLevelRewards;
      const short = shortPadding(scan === "gae" ? gamma * lambd : gamma);
      for (let j = 0; j < rank.length; j++) {
        const length = tokens[j].length;
        const padded = short ? length + ((cols - length) % DEFAULT_CHUNK_SIZE) : cols;
        const values = batch.values?.[j];
        const mine = slimeRowReturns(tokens[j], values, padded, gamma, lambd, scratch);
        compareRow(out, rank[j], mine, storedReturns[rank[j]]);
      }
    } catch {
      return false;
    }
    return true;
  }
}

/** Tokens of one window of a rank's rows (about 2 MB a float64 row of the window). */
const WINDOW_TOKENS = 1 << 18;

/** A rank's sample indices in order, cut into windows of about WINDOW_TOKENS tokens (a longer row is a window of its own). */
function windowsOf(rank: number[], samples: ReplaySample[]): number[][] {
  const windows: number[][] = [];
  let window: number[] = [];
  let tokens = 0;
  for (const i of rank) {
    const length = tokensOf(samples[i]);
    if (window.length > 0 && tokens + length > WINDOW_TOKENS) {
      windows.push(window);
      window = [];
      tokens = 0;
    }
    window.push(i);
    tokens += length;
  }
  if (window.length > 0) windows.push(window);
  return windows;
}

/**
 * slime scans each rank's batch right-padded to its longest row, and its chunks follow that padded
 * length (reversed time puts the padding first). The padding's whole chunks scan to +0 with a +0
 * carry (+0 times a finite power, plus +0, is +0; the chunked scan skips them for that reason), so a
 * row padded only by `(longest − length) mod C` zeros has the same chunk boundaries over its own
 * tokens and the same float32 bits: half the work on a ragged batch. Not where a power is infinite
 * or NaN (0·∞ = NaN would then flow out of the padding), where the row keeps the whole padding.
 */
function shortPadding(discount: number): boolean {
  if (!Number.isFinite(discount)) return false;
  const tables = discountPowers(discount, DEFAULT_CHUNK_SIZE, "float32");
  return (
    Array.prototype.every.call(tables.kernelRow, Number.isFinite) &&
    Array.prototype.every.call(tables.carryPowers, Number.isFinite) &&
    (tables.kernelPatches ?? []).every((p) => Number.isFinite(p.value))
  );
}

/**
 * One row of slime's scan (conventionScans' slimeGae and slimeReturns) on the row right-padded with
 * +0 to `padded` tokens, cut back to its own length. GAE's residuals at the padding are +0, and the
 * last token's next value is the padding's +0 whatever the padded length.
 */
function slimeRowReturns(
  tokens: Float32Array,
  values: Float32Array | undefined,
  padded: number,
  gamma: number,
  lambd: number,
  scratch: ScanScratch,
): Float32Array {
  const length = tokens.length;
  scratch.rewind();
  const rewards = { rows: 1, cols: padded, data: padTo(tokens, padded, scratch) };
  const options = { chunkSize: DEFAULT_CHUNK_SIZE, zeros: scratch.zeros };
  if (values === undefined) return chunkedDiscountedReturns(rewards, gamma, options).returns.data.subarray(0, length);
  const paddedValues = { rows: 1, cols: padded, data: padTo(values, padded, scratch) };
  return chunkedGae(rewards, paddedValues, gamma, lambd, options).returns.data.subarray(0, length);
}

function float32Of(row: ArrayLike<number>): Float32Array {
  return row instanceof Float32Array ? row : new Float32Array(row);
}

/** `row` right-padded with +0 to `length`, lent by the scratch (the row itself where it is that long). */
function padTo(row: Float32Array, length: number, scratch: ScanScratch): Float32Array {
  if (row.length === length) return row;
  const out = scratch.zeros(row, length);
  out.set(row);
  return out;
}

/** The stored float32 returns of one sample against slime's, bit for bit (−0 and +0 apart). */
function compareRow(out: BitComparison, sample: number, mine: Float32Array, stored: ArrayLike<number>): void {
  for (let t = 0; t < mine.length; t++) {
    out.compared += 1;
    if (Object.is(mine[t], stored[t])) {
      out.identical += 1;
      continue;
    }
    out.first ??= { sample, token: t };
    const ulp = 2 ** (Math.floor(Math.log2(Math.abs(stored[t]) || 2 ** -126)) - 23);
    out.maxUlps = Math.max(out.maxUlps, Math.abs(mine[t] - stored[t]) / ulp);
  }
}
