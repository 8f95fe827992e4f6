import { roundingOf } from "../batch";
import { addWhitenSums, emptyWhitenSums, slimeWhitenScalars, whitenRow64, whitenRows } from "../conventions/whiten";
import { ScanInputError } from "../validation";
import { lengthOf, tokensOf } from "./fieldLengths";
import { rowsOf } from "./lazyRows";
import { type ReplayBounds, rankLengths, replayBounds } from "./replayBounds";
import { klReference, type ReplayReference, replayReference } from "./replayReference";
import { ACCURACY_THRESHOLD, type FieldVerdict, fieldScale, judgeField } from "./replayVerdict";
import { RowArena } from "./rowArena";
import type { ReplaySample, SlimeSettings } from "./settings";
import { settingsProblem } from "./settingsProblem";
import {
  addWhitenBoundSums,
  emptyWhitenBoundSums,
  slimeWhitenBounds,
  type WhitenBoundStats,
  whitenStatsOf,
} from "./slimeWhitenBound";
import { rememberedStray, storedRawRows, storedRawSums } from "./storedRaw";
import { fitWhitening, fitWhiteningLine, type PendingWhitenFit, rawRowsOf, type WhitenFit } from "./whitenFit";

/** What slime stored for a sample: its float32 advantages and returns (and kl), widened to float64. */
export interface DumpOutputs {
  advantages: ArrayLike<number>;
  returns: ArrayLike<number>;
  kl?: ArrayLike<number>;
}

export interface SampleReplay {
  passed: boolean;
  length: number;
  reference: { advantages: Float64Array; returns: Float64Array; kl: Float64Array };
  bounds: { advantages: Float64Array; returns: Float64Array };
  advantages: FieldVerdict;
  returns: FieldVerdict;
  /** The stored KL against the float64 KL from the log-probs; null when it was not recomputed. */
  kl: FieldVerdict | null;
}

/** A sample's rows as lendRows lends them: its reference and bounds, and its advantages before the whitening. */
export type LentRows = Pick<SampleReplay, "reference" | "bounds"> & { rawAdvantages: Float64Array };

export type ReplayResult =
  | {
      ok: true;
      passed: boolean;
      samples: SampleReplay[];
      /** With normalisation: the whitening's exact scalars, and the map fitted from the stored values. */
      whitening: { stats: WhitenBoundStats; fit: WhitenFit | null } | null;
      /**
       * A windowed replay's every sample's `reference` and `bounds` (the same bits), in order, each
       * window replayed once into one arena reused across windows: the rows are lent for the call
       * only (the next window overwrites them). Reading the getters instead makes every window's
       * rows fresh arrays, three of its eight a token garbage at once.
       */
      lendRows?: (visit: (i: number, rows: LentRows) => void) => void;
      /**
       * A windowed replay's whitening of a lent row's `rawAdvantages` into `out` (its length): the
       * operations that made its `reference.advantages` (a copy where nothing is whitened), so a caller
       * may keep the raw row alone and whiten it again when read.
       */
      whitenAdvantages?: (raw: Float64Array, out: Float64Array) => void;
      /** A windowed replay's sample's `reference.kl` made alone, a fresh row (the KL reads its own tokens only). */
      referenceKl?: (i: number) => Float64Array;
    }
  /** The settings cannot be replayed on these inputs (slime would raise, or nothing can be checked): why. */
  | { ok: false; error: string };

/**
 * slime's `compute_advantages_and_returns` replayed in float64 on a dump's inputs, and each
 * sample's stored advantages and returns judged against it: every value within its own float32
 * bound (or the accuracy threshold where that bound is wide or infinite), and with
 * normalisation the whitening checked as one shared map (whitenFit). Pure: typed arrays in,
 * typed arrays out (worker-friendly).
 */
export function replaySlime(
  samples: ReplaySample[],
  stored: DumpOutputs[],
  settings: SlimeSettings,
  options: ReplayOptions = {},
): ReplayResult {
  const problem = settingsProblem(settings) ?? nothingToCompare(samples);
  if (problem) return { ok: false, error: problem };
  // The whitening fitted first where the dump gives slime's own raw advantages: their two float64 rows
  // per sample (70 MB at 4.4 M tokens) are gone before the reference and its bounds are built.
  const ownFit = settings.normalizeAdvantages ? whiteningFitOnStored(samples, stored, settings) : undefined;
  if (options.windowTokens !== undefined) {
    const windowed = replayByWindows(samples, stored, settings, ownFit, options.windowTokens, options.paddedLengths);
    if (windowed) return windowed;
  }
  const built = referenceAndBounds(samples, stored, settings, ownFit, options.paddedLengths, options.rows);
  if ("error" in built) return { ok: false, error: built.error };
  const { refAdvantages, refReturns, refKl, advantageBounds, returnBounds, klBounds } = built;
  const { stats, fit, rawBounds, sharedError } = built;
  const out = samples.map((s, i): SampleReplay => {
    const verdicts = judgeSample(s, stored[i], i, {
      reference: refAdvantages[i],
      refReturns: refReturns[i],
      refKl: refKl[i],
      bound: advantageBounds[i],
      returnBound: returnBounds[i],
      klBound: klBounds[i],
      fit,
      holdWide: stats !== null,
      atLeast: rawBounds && stats ? inheritedError(stats, rawBounds[i], sharedError) : undefined,
    });
    const { passed, length, advantages, returns, kl } = verdicts;
    return {
      passed,
      length,
      reference: { advantages: refAdvantages[i], returns: refReturns[i], kl: refKl[i] },
      bounds: { advantages: advantageBounds[i], returns: returnBounds[i] },
      advantages,
      returns,
      kl,
    };
  });
  if (stats && !stats.conditioned) nameCancellation(out, stats);
  return {
    ok: true,
    passed: out.every((s) => s.passed),
    samples: out,
    whitening: stats ? { stats, fit } : null,
  };
}

export interface ReplayOptions {
  /**
   * Replay and judge a window of samples at a time, of about this many tokens: memory bounded by the
   * window, not the batch. Each sample's `reference` and `bounds` are then recomputed when read (its
   * own rows, the same bits), its whole window at once: reads in order replay each window once. Where the whitening is fitted on the reference, or the replay raises,
   * the whole batch is replayed at once as without it.
   */
  windowTokens?: number;
  /**
   * Each data-parallel rank's padded length (rankLengths) when `samples` are some of a batch's: each
   * sample's bounds, and without normalisation its verdicts, are then those it has in the whole batch.
   */
  paddedLengths?: Map<number, number>;
  /**
   * Where the whole batch's rows (its `reference` and `bounds`) are taken from: this arena, reused
   * from its start, so they hold only until its next replay. A caller replaying batch after batch
   * and done with each before the next (a run's steps) writes one buffer again, where fresh rows
   * (8 a token, 30 MB a step of run50) had their first writes fault fresh pages in, each step, and
   * left the collector their garbage. A windowed replay takes its own.
   */
  rows?: RowArena;
}

/**
 * The windowed replay (ReplayOptions): with normalisation, a first pass over the windows sums the
 * whitening's statistics row by row, in the order the whole batch sums them (the same bits), and
 * judges each sample's returns and KL, which the whitening leaves alone; a second replays each window
 * again, whitens and judges its advantages (a cancelled whitening's verdicts read the raw bounds' mean
 * over the batch: summed in the first pass too). Without normalisation one pass judges all three.
 * Null where the whole batch must be replayed at once: the fit not on slime's own raw advantages, or a
 * replay that raises (the whole batch names the sample).
 */
function replayByWindows(
  samples: ReplaySample[],
  stored: DumpOutputs[],
  settings: SlimeSettings,
  ownFit: { pending: PendingWhitenFit | null } | undefined,
  windowTokens: number,
  paddedLengths: Map<number, number> | undefined,
): ReplayResult | null {
  const normalize = settings.normalizeAdvantages;
  if (normalize && !ownFit) return null;
  const pending = ownFit?.pending ?? null;
  // The fit's last marks made window by window in the first pass, which needs nothing of the fit.
  let fit: WhitenFit | null = null;
  const raw = { ...settings, normalizeAdvantages: false };
  const padded = paddedLengths ?? rankLengths(samples);
  const windows = sampleWindows(samples, windowTokens);
  const masksOf = (lo: number, hi: number) => samples.slice(lo, hi).map((s) => s.lossMask);
  // A pass's rows are dropped with their window: taken from one arena, handed out again for the next.
  const arena = new RowArena(ROWS_PER_TOKEN * windowTokens);
  const replayWindow = (lo: number, hi: number, rows?: RowArena) => {
    const part = samples.slice(lo, hi);
    rows?.reset();
    const reference = replayReference(part, raw, rows);
    return { reference, bounds: replayBounds(part, raw, reference, padded, rows) };
  };
  // Each sample's returns and KL, judged in the pass that first replays it.
  const returnsAndKl: ReturnType<typeof judgeReturnsAndKl>[] = [];
  const judgeWindowReturns = (lo: number, reference: ReplayReference, bounds: ReplayBounds) => {
    for (let j = 0; j < reference.returns.length; j++) {
      const i = lo + j;
      returnsAndKl[i] = judgeReturnsAndKl(samples[i], stored[i], reference.returns[j], bounds.returns[j], {
        refKl: reference.kl[j],
        klBound: bounds.kl[j],
      });
    }
  };
  let whitening: { stats: WhitenBoundStats; mean: number; rstd: number } | null = null;
  let sharedError = 0;
  try {
    if (normalize) {
      const sums = emptyWhitenSums();
      const boundSums = emptyWhitenBoundSums();
      // Rounded as the batch's first row is (whitenAdvantages): float64 rows, unless the stored KL came as float32.
      let round: ((x: number) => number) | undefined;
      // A cancelled whitening's verdicts read the raw bounds' mean over the batch (every token).
      const rawBoundSum = { sum: 0, n: 0 };
      for (const [lo, hi] of windows) {
        const { reference, bounds } = replayWindow(lo, hi, arena);
        const masks = masksOf(lo, hi);
        round ??= roundingOf(reference.rawAdvantages[0]);
        addWhitenSums(sums, reference.rawAdvantages, masks);
        addWhitenBoundSums(boundSums, reference.rawAdvantages, bounds.rawAdvantages, masks);
        addToMean(rawBoundSum, bounds.rawAdvantages);
        judgeWindowReturns(lo, reference, bounds);
        // The whitening fit's last pass, on the window's samples while their fields are read.
        for (let i = lo; i < hi; i++) pending?.markRow(i);
      }
      fit = pending?.finish() ?? null;
      const stats = whitenStatsOf(boundSums);
      whitening = { stats, ...slimeWhitenScalars(sums, round ?? ((x) => x)) };
      if (!stats.conditioned) sharedError = rawBoundSum.n > 0 ? rawBoundSum.sum / rawBoundSum.n : 0;
    }
    const stats = whitening?.stats ?? null;
    const cancelled = fit !== null && stats !== null && !stats.conditioned;
    const out: SampleReplay[] = [];
    // One for every sample (referenceOf and boundsOf are made below, read only when a row is).
    const windowRows: WindowRows = { referenceOf: (i) => referenceOf(i), boundsOf: (i) => boundsOf(i) };
    for (const [lo, hi] of windows) {
      const { reference, bounds } = replayWindow(lo, hi, arena);
      if (!normalize) judgeWindowReturns(lo, reference, bounds);
      const whitened = whitenWindow(reference, bounds, masksOf(lo, hi), whitening, arena);
      for (let j = 0; j < hi - lo; j++) {
        const i = lo + j;
        const advantages = judgeAdvantages(samples[i], stored[i], i, {
          reference: whitened.reference[j],
          bound: whitened.bounds[j],
          fit,
          holdWide: whitening !== null,
          atLeast: cancelled && stats ? inheritedError(stats, bounds.rawAdvantages[j], sharedError) : undefined,
        });
        out.push(new WindowedSample(verdictsOf(samples[i], advantages, returnsAndKl[i]), windowRows, i));
      }
    }
    arena.release();
    // A sample's rows are its own (the same bits in any window): a read replays the sample's whole
    // window once, into fresh rows, and keeps that window's rows until a read outside it, so reading
    // every sample in order (a report's reference, the run view's rows, bounds first) costs one replay.
    let last: { lo: number; hi: number; reference: ReplayReference; bounds: ReplayBounds | null } | null = null;
    const windowOf = (i: number, withBounds: boolean) => {
      if (last && i >= last.lo && i < last.hi && (last.bounds || !withBounds)) return last;
      const [lo, hi] = windows[windowIndex(windows, i)];
      last = withBounds
        ? { lo, hi, ...replayWindow(lo, hi) }
        : { lo, hi, reference: replayReference(samples.slice(lo, hi), raw), bounds: null };
      return last;
    };
    const referenceOf = (i: number): SampleReplay["reference"] => {
      const { lo, reference } = windowOf(i, false);
      const j = i - lo;
      const advantages = whitening
        ? whitenRows([reference.rawAdvantages[j]], whitening.mean, whitening.rstd)[0]
        : reference.advantages[j];
      return { advantages, returns: reference.returns[j], kl: reference.kl[j] };
    };
    const boundsOf = (i: number): SampleReplay["bounds"] => {
      const { lo, reference, bounds } = windowOf(i, true);
      const j = i - lo;
      const own = bounds as ReplayBounds;
      // whitenWindow's bounds for this one row, without its whitened reference (referenceOf's).
      const advantages = whitening
        ? slimeWhitenBounds([reference.rawAdvantages[j]], [own.rawAdvantages[j]], masksOf(i, i + 1), whitening.stats)[0]
        : own.advantages[j];
      return { advantages, returns: own.returns[j] };
    };
    const lendRows = (visit: (i: number, rows: LentRows) => void) => {
      const rows = new RowArena(ROWS_PER_TOKEN * windowTokens);
      for (const [lo, hi] of windows) {
        const { reference, bounds } = replayWindow(lo, hi, rows);
        // referenceOf's and boundsOf's rows: whitenWindow whitens each row by the same operations.
        const whitened = whitenWindow(reference, bounds, masksOf(lo, hi), whitening, rows);
        for (let j = 0; j < hi - lo; j++) {
          visit(lo + j, {
            reference: { advantages: whitened.reference[j], returns: reference.returns[j], kl: reference.kl[j] },
            bounds: { advantages: whitened.bounds[j], returns: bounds.returns[j] },
            rawAdvantages: reference.rawAdvantages[j],
          });
        }
      }
      rows.release();
    };
    if (stats && !stats.conditioned) nameCancellation(out, stats);
    return {
      ok: true,
      passed: out.every((s) => s.passed),
      samples: out,
      whitening: whitening ? { stats: whitening.stats, fit } : null,
      lendRows,
      whitenAdvantages: (raw, out) =>
        whitening ? whitenRow64(out, raw, whitening.mean, whitening.rstd) : out.set(raw),
      referenceKl: (i: number) => klReference(samples[i], i, raw).row,
    };
  } catch (error) {
    if (error instanceof ScanInputError) return null;
    throw error;
  }
}

/**
 * The rows a window's replay takes from its arena per token: ppo's reference (2) and bounds (2), the
 * KL and its bound, and the whitened advantages and their bounds.
 */
const ROWS_PER_TOKEN = 8;

/** A window's advantages and their bounds after the whitening (as they are without normalisation). */
function whitenWindow(
  reference: ReplayReference,
  bounds: ReplayBounds,
  masks: ArrayLike<number>[],
  whitening: { stats: WhitenBoundStats; mean: number; rstd: number } | null,
  /** Where the whitened rows are taken from (the window's: they are judged before the next window). */
  arena?: RowArena,
): { reference: Float64Array[]; bounds: Float64Array[] } {
  if (!whitening) return { reference: reference.advantages, bounds: bounds.advantages };
  const { mean, rstd } = whitening;
  // whitenRows' float64 rows, into the arena: the same operations.
  const whitened = (row: Float64Array) => {
    if (!arena || !(row instanceof Float64Array)) return whitenRows([row], mean, rstd)[0];
    const out = arena.take(row.length);
    whitenRow64(out, row, mean, rstd);
    return out;
  };
  return {
    reference: reference.rawAdvantages.map(whitened),
    bounds: slimeWhitenBounds(reference.rawAdvantages, bounds.rawAdvantages, masks, whitening.stats, arena),
  };
}

/** The window holding sample `i` (windows are consecutive and sorted). */
function windowIndex(windows: [number, number][], i: number): number {
  let lo = 0;
  let hi = windows.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (windows[mid][1] <= i) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Consecutive samples, about `tokens` tokens a window (a longer sample is a window of its own). */
function sampleWindows(samples: ReplaySample[], tokens: number): [number, number][] {
  const windows: [number, number][] = [];
  let lo = 0;
  let count = 0;
  samples.forEach((s, i) => {
    if (i > lo && count + tokensOf(s) > tokens) {
      windows.push([lo, i]);
      lo = i;
      count = 0;
    }
    count += tokensOf(s);
  });
  if (lo < samples.length) windows.push([lo, samples.length]);
  return windows;
}

/** How a windowed replay recomputes a sample's rows. */
interface WindowRows {
  referenceOf(i: number): SampleReplay["reference"];
  boundsOf(i: number): SampleReplay["bounds"];
}

/**
 * A sample's verdicts, its reference and bounds recomputed (not kept) each time they are read: the
 * getters on the prototype. Own getters (two closures a sample) gave each sample a map of its own,
 * some 1 KB a sample (150 MB at 150,000 samples).
 */
class WindowedSample implements SampleReplay {
  passed: boolean;
  length: number;
  advantages: FieldVerdict;
  returns: FieldVerdict;
  kl: FieldVerdict | null;
  readonly #rows: WindowRows;
  readonly #index: number;

  constructor(verdicts: Omit<SampleReplay, "reference" | "bounds">, rows: WindowRows, index: number) {
    this.passed = verdicts.passed;
    this.length = verdicts.length;
    this.advantages = verdicts.advantages;
    this.returns = verdicts.returns;
    this.kl = verdicts.kl;
    this.#rows = rows;
    this.#index = index;
  }

  get reference(): SampleReplay["reference"] {
    return this.#rows.referenceOf(this.#index);
  }

  get bounds(): SampleReplay["bounds"] {
    return this.#rows.boundsOf(this.#index);
  }
}

interface SampleRows {
  reference: Float64Array;
  refReturns: Float64Array;
  refKl: Float64Array;
  bound: Float64Array;
  returnBound: Float64Array;
  klBound: Float64Array | null;
  fit: WhitenFit | null;
  holdWide: boolean;
  atLeast?: Float64Array;
}

/** One sample's advantages, returns and KL judged against its reference and bounds. */
function judgeSample(
  s: ReplaySample,
  stored: DumpOutputs,
  i: number,
  rows: SampleRows,
): Omit<SampleReplay, "reference" | "bounds"> {
  const advantages = judgeAdvantages(s, stored, i, rows);
  return verdictsOf(s, advantages, judgeReturnsAndKl(s, stored, rows.refReturns, rows.returnBound, rows));
}

/** A sample's stored advantages against its (whitened) reference, the whitening's fit and its tolerance. */
function judgeAdvantages(
  s: ReplaySample,
  stored: DumpOutputs,
  i: number,
  rows: Pick<SampleRows, "reference" | "bound" | "fit" | "holdWide" | "atLeast">,
): FieldVerdict {
  const { fit } = rows;
  return judgeField(stored.advantages, rows.reference, rows.bound, {
    alsoFailing: fit ? (fit.scalarProblem ? ones(tokensOf(s)) : fit.offLine[i]) : undefined,
    cause: fit ? whitenFitCause(fit, i) : null,
    atLeast: rows.atLeast,
    holdWide: rows.holdWide,
  });
}

/** A sample's stored returns and KL, which the whitening does not touch: judged as soon as they are replayed. */
function judgeReturnsAndKl(
  s: ReplaySample,
  stored: DumpOutputs,
  refReturns: Float64Array,
  returnBound: Float64Array,
  rows: Pick<SampleRows, "refKl" | "klBound">,
): { returns: FieldVerdict; kl: FieldVerdict | null } {
  const returns = judgeField(stored.returns, refReturns, returnBound);
  const storedKl = stored.kl;
  const kl =
    rows.klBound && storedKl
      ? judgeField(storedKl, rows.refKl, rows.klBound)
      : storedKl && !s.refLogProbs
        ? judgeZeroKl(storedKl)
        : null;
  return { returns, kl };
}

function verdictsOf(
  s: ReplaySample,
  advantages: FieldVerdict,
  { returns, kl }: { returns: FieldVerdict; kl: FieldVerdict | null },
): Omit<SampleReplay, "reference" | "bounds"> {
  return {
    passed: advantages.passed && returns.passed && (kl?.passed ?? true),
    length: tokensOf(s),
    advantages,
    returns,
    kl,
  };
}

interface VerdictInputs {
  refAdvantages: Float64Array[];
  refReturns: Float64Array[];
  refKl: Float64Array[];
  advantageBounds: Float64Array[];
  returnBounds: Float64Array[];
  klBounds: (Float64Array | null)[];
  stats: WhitenBoundStats | null;
  fit: WhitenFit | null;
  /** The raw advantages' bounds, kept only where a cancelled whitening reads them per token. */
  rawBounds: Float64Array[] | null;
  sharedError: number;
}

/**
 * The reference and its bounds, with the whitening's fit, as the verdicts read them: the raw
 * advantages and their bounds are left behind once the whitening is fitted (70 MB at 4.4 M tokens),
 * unless a cancelled whitening needs the raw bounds per token.
 */
function referenceAndBounds(
  samples: ReplaySample[],
  stored: DumpOutputs[],
  settings: SlimeSettings,
  ownFit: { pending: PendingWhitenFit | null } | undefined,
  paddedLengths: Map<number, number> | undefined,
  rows: RowArena | undefined,
): VerdictInputs | { error: string } {
  let reference: ReplayReference;
  let bounds: ReplayBounds;
  try {
    rows?.reuse(ROWS_PER_TOKEN * samples.reduce((sum, s) => sum + tokensOf(s), 0));
    reference = replayReference(samples, settings, rows);
    bounds = replayBounds(samples, settings, reference, paddedLengths, rows);
  } catch (error) {
    if (error instanceof ScanInputError) return { error: error.message };
    throw error;
  }
  const stats = bounds.whiten;
  const fit = stats
    ? ownFit
      ? (ownFit.pending?.finish() ?? null)
      : whiteningFitOnReference(reference, bounds, stored).fit
    : null;
  const cancelled = fit !== null && stats !== null && !stats.conditioned;
  return {
    refAdvantages: reference.advantages,
    refReturns: reference.returns,
    refKl: reference.kl,
    advantageBounds: bounds.advantages,
    returnBounds: bounds.returns,
    klBounds: bounds.kl,
    stats,
    fit,
    rawBounds: cancelled ? bounds.rawAdvantages : null,
    sharedError: stats && !stats.conditioned ? meanOf(bounds.rawAdvantages) : 0,
  };
}

/**
 * The whitening fitted on slime's own raw advantages where the dump gives them (storedRaw.ts: their
 * error is a rounding or two, so each token's tolerance around the fit is too), else on the float64
 * reference with its bounds.
 */
function whiteningFitOnStored(
  samples: ReplaySample[],
  stored: DumpOutputs[],
  settings: SlimeSettings,
): { pending: PendingWhitenFit | null } | undefined {
  const own = storedRawRows(samples, stored, settings);
  if (!own) return undefined;
  const advantages = rowsOf(stored, "advantages");
  // The statistics summed a row at a time, in slimeWhitenStats' order (or by the settings read, in its pass).
  const sums = storedRawSums(samples, stored, settings, own);
  // Their lengths said without reading them where the dump streams them (FIELD_LENGTHS).
  const lengths = stored.map((st) => lengthOf(st, "advantages") as number);
  // The stray marks made by the settings read, where it made them on these rows (storedRaw.ts).
  const made = rememberedStray(samples, stored, settings.advantageEstimator);
  return { pending: fitWhiteningLine(own, advantages, whitenStatsOf(sums), lengths, made) };
}

function whiteningFitOnReference(
  reference: ReplayReference,
  bounds: ReplayBounds,
  stored: DumpOutputs[],
): { fit: WhitenFit | null } {
  const advantages = stored.map((s) => s.advantages);
  const stats = bounds.whiten as WhitenBoundStats;
  return { fit: fitWhitening(rawRowsOf(reference.rawAdvantages, bounds.rawAdvantages), advantages, stats) };
}

/**
 * Where the whitening cannot be bounded, the fit alone checks it (against the exact whitening of
 * slime's own raw advantages); the stored values then differ from the float64 reference by at least
 * what the raw advantages' float32 error becomes through rs: at rewards ≈ 1e4, float32 holds a raw
 * advantage only to 1e-3, so an exact whitening of it is no closer.
 */
function inheritedError(stats: WhitenBoundStats, rawErrors: Float64Array, shared: number): Float64Array {
  const out = new Float64Array(rawErrors.length);
  for (let t = 0; t < out.length; t++) out[t] = stats.rs * (rawErrors[t] + shared) * (1 + ACCURACY_THRESHOLD);
  return out;
}

/** The mean over every token of the batch: once per replay (per sample, it made a 1024-sample dump quadratic). */
function meanOf(rows: Float64Array[]): number {
  const acc = addToMean({ sum: 0, n: 0 }, rows);
  return acc.n > 0 ? acc.sum / acc.n : 0;
}

/** meanOf's sum and count carried on over more rows, in the same order (a window at a time: the same bits). */
function addToMean(acc: { sum: number; n: number }, rows: Float64Array[]): { sum: number; n: number } {
  let { sum, n } = acc;
  for (const row of rows)
    for (let t = 0; t < row.length; t++) {
      sum += row[t];
      n += 1;
    }
  acc.sum = sum;
  acc.n = n;
  return acc;
}

/**
 * Without reference log-probs slime computes no KL: it stores zeros (`kl_coef == 0`, and a run with a
 * KL penalty always loads the reference model), so a stored KL that is not zero there was written by
 * something else (slime PR #2114 stored the token-level reward in its place).
 */
function judgeZeroKl(storedKl: ArrayLike<number>): FieldVerdict {
  const zeros = new Float64Array(storedKl.length);
  return judgeField(storedKl, zeros, zeros, {
    scale: fieldScale(storedKl),
    cause: "slime stores a KL of zeros when the dump has no reference log-probs (kl_coef 0)",
  });
}

/** A dump with no token to compare is refused: "all within" would say nothing. */
function nothingToCompare(samples: ReplaySample[]): string | null {
  if (samples.length === 0) return "the dump has no samples: nothing to compare";
  const empty = samples.flatMap((s, i) => (tokensOf(s) === 0 ? [i] : []));
  if (empty.length === 0) return null;
  const which = empty.length === samples.length ? "every sample has" : `samples ${list(empty)} have`;
  return `${which} 0 response tokens: nothing to compare there`;
}

function whitenFitCause(fit: WhitenFit, sample: number): string | null {
  if (fit.scalarProblem) return fit.scalarProblem;
  const w = fit.worstOffLine;
  if (w && fit.offLine[sample].some((x) => x === 1)) {
    const own =
      w.sample === sample
        ? ` (token ${w.token}: ${w.gap.toPrecision(3)} off, its rounding allows ${w.tolerance.toPrecision(3)})`
        : "";
    return `stored advantages lie off the whitening map shared by the whole batch${own}`;
  }
  return null;
}

/**
 * slime's float32 one-pass variance `E[x²] − E[x]²` cancels when the raw advantages sit far from 0
 * with a small spread (NeMo-RL #4158; slime does it today): name it on every failing advantages
 * verdict, with how far the stored values are from the exact ones in this step.
 */
function nameCancellation(samples: SampleReplay[], stats: WhitenBoundStats): void {
  const failing = samples.filter((s) => !s.advantages.passed);
  if (failing.length === 0) return;
  const allNaN = samples.every((s) => s.advantages.maxGap === Number.POSITIVE_INFINITY);
  let worst = 0;
  for (const s of failing) worst = Math.max(worst, s.advantages.maxGap / (s.advantages.scale || 1));
  const sd = Math.sqrt(Math.max(0, stats.variance));
  const what = allNaN
    ? "every stored advantage is NaN or infinite"
    : Number.isFinite(worst)
      ? `the stored advantages are off the exact ones by up to ${(100 * worst).toPrecision(2)} % in this step`
      : "stored advantages are NaN or infinite";
  const cause =
    `slime's float32 one-pass whitening cancelled: the raw advantages are ${stats.mean.toPrecision(5)} ± ${sd.toPrecision(2)}, ` +
    `a variance below float32's resolution of their mean square (${stats.meanSquare.toPrecision(3)}); ${what} (NeMo-RL #4158)`;
  for (const s of failing) s.advantages.cause = cause;
}

function ones(n: number): Uint8Array {
  return new Uint8Array(n).fill(1);
}

/** "0–3, 5, 7": runs of indices. */
function list(indices: number[]): string {
  const parts: string[] = [];
  for (let k = 0; k < indices.length; ) {
    let j = k;
    while (j + 1 < indices.length && indices[j + 1] === indices[j] + 1) j += 1;
    parts.push(j > k ? `${indices[k]}–${indices[j]}` : String(indices[k]));
    k = j + 1;
  }
  return parts.join(", ");
}
