import { UNIT_ROUNDOFF } from "../errorBound";
import { lengthOf, tokensOf } from "./fieldLengths";
import type { DumpOutputs } from "./replayDump";
import { isBroadcastEstimator, type ReplaySample, type SlimeEstimator, type SlimeSettings } from "./settings";
import { addWhitenBoundSums, emptyWhitenBoundSums, type WhitenBoundSums } from "./slimeWhitenBound";
import type { RawRows, StrayMarks } from "./whitenFit";

/**
 * The float32 advantages slime whitened, as far as the dump's own numbers give them, with how far
 * each may be from that float32 value: slime whitens its own raw advantages, so the whitening is
 * checked against those, not against the float64 reference (whose distance from slime's raw values is
 * judged on its own, through the returns). Every estimator leaves them in the dump:
 * - reinforce_plus_plus: the returns are the raw advantages (one storage);
 * - ppo: `returns = advantages + values` in float32, so raw = returns − values within u·|returns|;
 * - grpo, gspo, cispo: the float32 reward on every token;
 * - reinforce_plus_plus_baseline: `R − β·kl` in float32 on the stored kl, within its two roundings.
 * Null when a field it needs is not stored. Each sample's row is computed when read: the batch's
 * rows are two float64 rows per sample (70 MB at 4.4 M tokens), and the fit reads them a row at a time.
 */
export function storedRawRows(samples: ReplaySample[], stored: DumpOutputs[], settings: SlimeSettings): RawRows | null {
  const estimator = settings.advantageEstimator;
  // Only R − β·kl reads the KL: the others' rows never ask for it (a streamed dump would read it from the file).
  const klOf = (i: number) =>
    estimator === "reinforce_plus_plus_baseline" ? (stored[i].kl ?? samples[i].kl) : undefined;
  // Lengths and presence off FIELD_LENGTHS where the rows say them (a streamed dump's): nothing read here.
  const lengths = samples.map(tokensOf);
  for (let i = 0; i < samples.length; i++) {
    const R = lengths[i];
    if (lengthOf(stored[i], "returns") !== R) return null;
    if (estimator === "reinforce_plus_plus" || isBroadcastEstimator(estimator)) continue;
    const needed =
      estimator === "ppo" ? lengthOf(samples[i], "values") : (lengthOf(stored[i], "kl") ?? lengthOf(samples[i], "kl"));
    if (needed !== R) return null;
  }
  // One pair of rows, rewritten on each read (the fit reads a row at a time, some ten times per sample):
  // two fresh float64 rows per read were 0.6 GB of garbage at 4.4 M tokens. The last row read is
  // given again as it is.
  let longest = 0;
  for (const R of lengths) longest = Math.max(longest, R);
  const rawBuffer = new Float64Array(longest);
  const errorBuffer = new Float64Array(longest);
  let last: { index: number; raw: Float64Array; errors: Float64Array } | null = null;
  return {
    count: samples.length,
    row: (i) => {
      if (last?.index === i) return last;
      const R = lengths[i];
      const raw = rawBuffer.subarray(0, R);
      const errors = errorBuffer.subarray(0, R);
      rawRow(samples[i], R, stored[i].returns, klOf(i), settings, raw, errors);
      last = { index: i, raw, errors };
      return last;
    },
  };
}

/** Writes a sample's raw advantages and their errors into `x` and `e` (its length). */
function rawRow(
  s: ReplaySample,
  R: number,
  returns: ArrayLike<number>,
  kl: ArrayLike<number> | undefined,
  settings: SlimeSettings,
  x: Float64Array,
  e: Float64Array,
): void {
  const u = UNIT_ROUNDOFF.float32;
  const estimator = settings.advantageEstimator;
  // ppo and R − β·kl write every token's error below; the others have none (zeroed here, not on every read).
  if (estimator === "reinforce_plus_plus") {
    x.set(returns);
    e.fill(0);
  } else if (estimator === "ppo") {
    const values = s.values as ArrayLike<number>;
    for (let t = 0; t < R; t++) {
      x[t] = returns[t] - values[t];
      e[t] = u * Math.abs(returns[t]);
    }
  } else if (isBroadcastEstimator(estimator)) {
    x.fill(Math.fround(s.reward));
    e.fill(0);
  } else {
    const stored = kl as ArrayLike<number>;
    const reward = Math.fround(s.reward);
    const beta = Math.fround(settings.klCoef);
    for (let t = 0; t < R; t++) {
      const penalty = beta * stored[t];
      x[t] = reward - penalty;
      e[t] = u * (Math.abs(reward) + 2 * Math.abs(penalty));
    }
  }
}

/**
 * The whitening's sums over slime's own raw advantages (storedRawRows' rows, added a row at a time in
 * the batch's order, as whitenStatsOf takes them): those the settings read added in its own pass over
 * the same rows (rememberRawSums), else a pass of their own. A streamed dump read every sample's
 * returns, values and mask from its file once more for them.
 */
export function storedRawSums(
  samples: ReplaySample[],
  stored: DumpOutputs[],
  settings: SlimeSettings,
  rows: RawRows,
): WhitenBoundSums {
  const known = rememberedFor(samples, stored, settings.advantageEstimator);
  if (known) return { ...known.sums };
  const sums = emptyWhitenBoundSums();
  for (let i = 0; i < rows.count; i++) {
    const { raw, errors } = rows.row(i);
    addWhitenBoundSums(sums, [raw], [errors], [samples[i].lossMask]);
  }
  return sums;
}

/** Estimators whose raw rows (storedRawRows') no other setting changes: their sums can be added before the replay. */
export function rawRowsStand(estimator: SlimeEstimator): boolean {
  return estimator === "ppo" || estimator === "reinforce_plus_plus";
}

/**
 * Adds sample i's raw row to `sums` as storedRawSums adds it, for an estimator rawRowsStand takes:
 * `raw` is the row storedRawRows gives (ppo's returns − values, REINFORCE++'s returns), `returns`
 * the stored returns its errors are read from; `scratch` holds the longest row.
 */
export function addStoredRawRow(
  sums: WhitenBoundSums,
  estimator: SlimeEstimator,
  raw: ArrayLike<number>,
  returns: ArrayLike<number>,
  mask: ArrayLike<number>,
  scratch: { raw: Float64Array; errors: Float64Array },
): void {
  const { x, e } = storedRawRowOf(estimator, raw, returns, scratch);
  addWhitenBoundSums(sums, [x], [e], [mask]);
}

/**
 * storedRawRows' row for an estimator rawRowsStand takes, from `raw` as the settings read has it
 * (ppo's returns − values, REINFORCE++'s returns), into `scratch`: rawRow's rows, the same operations
 * (copied: ppo's is one already), its errors u·|returns| for ppo, else 0.
 */
export function storedRawRowOf(
  estimator: SlimeEstimator,
  raw: ArrayLike<number>,
  returns: ArrayLike<number>,
  scratch: { raw: Float64Array; errors: Float64Array },
): { x: Float64Array; e: Float64Array } {
  const R = raw.length;
  const x = scratch.raw.subarray(0, R);
  const e = scratch.errors.subarray(0, R);
  x.set(raw);
  if (estimator === "ppo") {
    const u = UNIT_ROUNDOFF.float32;
    for (let t = 0; t < R; t++) e[t] = u * Math.abs(returns[t]);
  } else e.fill(0);
  return { x, e };
}

/** The sums of a batch's raw rows, added by the settings read (rememberRawSums): by the stored rows' array. */
const remembered = new WeakMap<
  DumpOutputs[],
  { samples: ReplaySample[]; estimator: SlimeEstimator; sums: WhitenBoundSums; stray?: StrayMarks }
>();

function rememberedFor(samples: ReplaySample[], stored: DumpOutputs[], estimator: SlimeEstimator) {
  const known = remembered.get(stored);
  return known && known.samples === samples && known.estimator === estimator ? known : null;
}

/**
 * The whitening fit's stray marks (StrayMarker) on storedRawRows' rows under the statistics of the
 * sums remembered with them (rememberRawSums first), made by the settings read in its pass over the
 * same rows; read, never written, by every replay of these rows (fitWhiteningLine's `made`).
 */
export function rememberStray(
  samples: ReplaySample[],
  stored: DumpOutputs[],
  estimator: SlimeEstimator,
  stray: StrayMarks,
): void {
  const known = rememberedFor(samples, stored, estimator);
  if (known) known.stray = stray;
}

/** The stray marks rememberStray kept for these rows, if any. */
export function rememberedStray(
  samples: ReplaySample[],
  stored: DumpOutputs[],
  estimator: SlimeEstimator,
): StrayMarks | undefined {
  return rememberedFor(samples, stored, estimator)?.stray;
}

/** `sums` are storedRawSums' for these samples and stored rows under `estimator` (one rawRowsStand takes). */
export function rememberRawSums(
  samples: ReplaySample[],
  stored: DumpOutputs[],
  estimator: SlimeEstimator,
  sums: WhitenBoundSums,
): void {
  if (rawRowsStand(estimator)) remembered.set(stored, { samples, estimator, sums: { ...sums } });
}
