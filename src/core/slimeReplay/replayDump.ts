import { ScanInputError } from "../validation";
import { type ReplayBounds, replayBounds } from "./replayBounds";
import { type ReplayReference, replayReference } from "./replayReference";
import { ACCURACY_THRESHOLD, type FieldVerdict, fieldScale, judgeField } from "./replayVerdict";
import type { ReplaySample, SlimeSettings } from "./settings";
import { settingsProblem } from "./settingsProblem";
import { slimeWhitenStats, type WhitenBoundStats } from "./slimeWhitenBound";
import { storedRawAdvantages } from "./storedRaw";
import { fitWhitening, type WhitenFit } from "./whitenFit";

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

export type ReplayResult =
  | {
      ok: true;
      passed: boolean;
      samples: SampleReplay[];
      /** With normalisation: the whitening's exact scalars, and the map fitted from the stored values. */
      whitening: { stats: WhitenBoundStats; fit: WhitenFit | null } | null;
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
export function replaySlime(samples: ReplaySample[], stored: DumpOutputs[], settings: SlimeSettings): ReplayResult {
  const problem = settingsProblem(settings) ?? nothingToCompare(samples);
  if (problem) return { ok: false, error: problem };
  // The whitening fitted first where the dump gives slime's own raw advantages: their two float64 rows
  // per sample (70 MB at 4.4 M tokens) are gone before the reference and its bounds are built.
  const ownFit = settings.normalizeAdvantages ? whiteningFitOnStored(samples, stored, settings) : undefined;
  const built = referenceAndBounds(samples, stored, settings, ownFit);
  if ("error" in built) return { ok: false, error: built.error };
  const { refAdvantages, refReturns, refKl, advantageBounds, returnBounds, klBounds } = built;
  const { stats, fit, rawBounds, sharedError } = built;
  const out = samples.map((s, i): SampleReplay => {
    const advantages = judgeField(stored[i].advantages, refAdvantages[i], advantageBounds[i], {
      alsoFailing: fit ? (fit.scalarProblem ? ones(s.lossMask.length) : fit.offLine[i]) : undefined,
      cause: fit ? whitenFitCause(fit, i) : null,
      atLeast: rawBounds && stats ? inheritedError(stats, rawBounds[i], sharedError) : undefined,
      holdWide: stats !== null,
    });
    const returns = judgeField(stored[i].returns, refReturns[i], returnBounds[i]);
    const klBound = klBounds[i];
    const storedKl = stored[i].kl;
    const kl =
      klBound && storedKl
        ? judgeField(storedKl, refKl[i], klBound)
        : storedKl && !s.refLogProbs
          ? judgeZeroKl(storedKl)
          : null;
    return {
      passed: advantages.passed && returns.passed && (kl?.passed ?? true),
      length: s.lossMask.length,
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
  ownFit: { fit: WhitenFit | null } | undefined,
): VerdictInputs | { error: string } {
  let reference: ReplayReference;
  let bounds: ReplayBounds;
  try {
    reference = replayReference(samples, settings);
    bounds = replayBounds(samples, settings, reference);
  } catch (error) {
    if (error instanceof ScanInputError) return { error: error.message };
    throw error;
  }
  const stats = bounds.whiten;
  const fit = stats ? (ownFit ?? whiteningFitOnReference(reference, bounds, stored)).fit : null;
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
): { fit: WhitenFit | null } | undefined {
  const own = storedRawAdvantages(
    samples,
    stored.map((s) => s.returns),
    stored.map((s) => s.kl),
    settings,
  );
  if (!own) return undefined;
  const advantages = stored.map((s) => s.advantages);
  const masks = samples.map((s) => s.lossMask);
  return { fit: fitWhitening(own.raw, own.errors, advantages, slimeWhitenStats(own.raw, own.errors, masks)) };
}

function whiteningFitOnReference(
  reference: ReplayReference,
  bounds: ReplayBounds,
  stored: DumpOutputs[],
): { fit: WhitenFit | null } {
  const advantages = stored.map((s) => s.advantages);
  const stats = bounds.whiten as WhitenBoundStats;
  return { fit: fitWhitening(reference.rawAdvantages, bounds.rawAdvantages, advantages, stats) };
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
  let sum = 0;
  let n = 0;
  for (const row of rows)
    for (let t = 0; t < row.length; t++) {
      sum += row[t];
      n += 1;
    }
  return n > 0 ? sum / n : 0;
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
  const empty = samples.flatMap((s, i) => (s.lossMask.length === 0 ? [i] : []));
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
