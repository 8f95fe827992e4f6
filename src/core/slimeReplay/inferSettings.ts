import { lastUnmasked } from "../conventions/tokenRewards";
import {
  baselineFit,
  estimateOf,
  type FitSample,
  isBroadcastFit,
  ppoFit,
  ratioEstimate,
  reducedChiSquare,
  reinforcePPFit,
} from "./estimatorFits";
import { FIELD_LENGTHS, lengthOf, tokensOf } from "./fieldLengths";
import { FitKl } from "./fitKl";
import { type KlRead, readKl } from "./inferKl";
import type { InferredSettings, Pending } from "./inferredSettings";
import { klByFit } from "./klByFit";
import type { LeastSquaresFit } from "./leastSquares";
import { readNormalizationOfRows } from "./normalizationFit";
import { CP_CANDIDATES, inferPpoPlacement } from "./ppoPlacementFit";
import { type DumpOutputs, replaySlime } from "./replayDump";
import { ppoRewardIndices } from "./replayReference";
import { rewardsSayGrpo } from "./rewardsSayGrpo";
import { type RobustFit, tagSample } from "./robustFit";
import { type ReplaySample, SLIME_DEFAULTS, type SlimeEstimator, type SlimeSettings } from "./settings";
import { InferredSettingsScratch, roundAndCheck } from "./settleByReplay";
import { emptyWhitenBoundSums, whitenStatsOf } from "./slimeWhitenBound";
import { addStoredRawRow, rawRowsStand, rememberRawSums, rememberStray, storedRawRowOf } from "./storedRaw";
import { StrayMarker } from "./whitenFit";

/** A fit whose residuals are this far above float32 rounding (χ²/ν) is not the estimator that wrote the numbers. */
const FIT_LIMIT = 1e4;

/**
 * A dump's settings read from its own numbers. The estimator's recursions are linear in γ, β and
 * μ = γλ, so each is a weighted least-squares fit over every usable token of every sample
 * (estimatorFits), not a grid search:
 * - values present → ppo, fitting (β, γ, μ) and the context-parallel size that places the reward;
 * - returns equal to the reward on every token → grpo (gspo and cispo compute the same);
 * - otherwise REINFORCE++ (γ, β) or REINFORCE++-baseline (β), whichever fits float32 rounding
 *   (the baseline's R − β·kl with grpo's std-normalised rewards: grpo with the KL applied);
 * - normalisation from whether the advantages are the raw ones or their whitening;
 * - kl_coef 0, the KL formula and its log-probs from the stored KL (readKl), or, when no formula
 *   reproduces it, from the returns (klByFit).
 * Every fit is robust to a minority of departing equations (robustFit): a known bug breaks the
 * recursion at a few tokens, and the settings read from the rest are the run's, so the diagnosis
 * can name the bug; what was set aside is in the notes.
 * - n_samples_per_prompt from the samples' prompt groups.
 * Then the settings are replayed (replaySlime) and the verdict noted. Never throws.
 */
export function inferSettings(
  samples: ReplaySample[],
  stored: DumpOutputs[],
  replay: typeof replaySlime = replaySlime,
): InferredSettings {
  const settings: SlimeSettings = { ...SLIME_DEFAULTS };
  const result: InferredSettings = { settings, estimates: {}, notIdentifiable: {}, notes: [] };
  const why = result.notIdentifiable;
  why.rewardsNormalization =
    "rewards_normalization: it acts on the rewards before the advantages (compare local_raw_reward with rewards by group)";
  why.grpoStdNormalization = "grpo_std_normalization: it acts on the rewards before the advantages";

  const fits = fitSamples(samples, stored, result.notes);
  readGroups(samples, settings, why);
  if (fits.length === 0) {
    const reason = samples.length === 0 ? "no samples" : "no sample has stored advantages and returns to read";
    for (const key of ["advantageEstimator", "gamma", "lambd", "klCoef", "normalizeAdvantages"] as const) {
      why[key] = `${key}: ${reason}`;
    }
    why.contextParallelSize = `contextParallelSize: ${reason}`;
    return result;
  }

  // The sample under its fit's KL, its other fields read through it (a spread would read every field of every sample at once).
  const kl = readKl(fits.map(({ index, fit }) => new FitKl(samples[index], fit)));
  Object.assign(settings, kl.settings);
  Object.assign(why, kl.notIdentifiable);
  result.notes.push(...kl.notes);
  if (kl.unexplained) readKlFromReturns(fits, samples, result, kl);
  if (kl.coefIsZero) result.estimates.klCoef = { value: 0, uncertainty: 0 };

  const used = fits.map((f) => f.fit);
  const pending: Pending = { alternatives: [], values: {} };
  // The scalars are a handful of unknowns: a spread of samples holding 2^17 tokens fixes them to
  // float32's resolution, and the trimmed fits' rounds cost time in proportion to the equations.
  const fitted = spreadOfSamples(fits, FIT_TOKENS);
  if (fitted.length < fits.length) {
    result.notes.push(
      `γ, λ and kl_coef were fitted on ${fitted.length} of ${fits.length} samples, spread over the batch (${FIT_TOKENS} tokens at most); every sample is replayed`,
    );
  }
  const estimator = readEstimator(
    fitted.map((f) => f.fit),
    fitted,
    samples,
    result,
    kl.zero,
    pending,
  );
  settings.advantageEstimator = estimator;
  if (estimator !== "ppo") {
    result.contextParallelSizes = [...CP_CANDIDATES];
    why.contextParallelSize = `contextParallelSize: only ppo's reward placement depends on it (${estimator} gives the same numbers under any)`;
  }

  const isPpo = estimator === "ppo";
  // Each row computed when read, into one reused row each: ppo's raw advantages and their scale are
  // not kept for the batch, nor allocated per sample.
  const longest = used.reduce((n, f) => Math.max(n, lengthOf(f, "returns") as number), 0);
  const rawRow = new Float64Array(isPpo ? longest : 0);
  const scaleRow = new Float64Array(longest);
  // The replay's whitening sums the same raw rows (storedRawSums): added here, in this pass over them,
  // where every sample is fitted and no other setting changes the rows.
  const rawSums = used.length === samples.length && rawRowsStand(estimator) ? emptyWhitenBoundSums() : null;
  const scratch = rawSums ? { raw: new Float64Array(longest), errors: new Float64Array(longest) } : null;
  const strays: { marker: StrayMarker | null } = { marker: null };
  // Each sample's stored rows read in its turn: a map over the batch read every streamed field at once.
  const normalization = readNormalizationOfRows({
    count: used.length,
    raw: (i) => (isPpo ? rawPpoAdvantages(used[i], rawRow) : used[i].returns),
    scale: (i) =>
      isPpo
        ? absSum(scaleRow, used[i].returns, used[i].values as ArrayLike<number>)
        : absSum(scaleRow, used[i].returns),
    advantages: (i) => fits[i].advantages,
    mask: (i) => used[i].mask,
    visit:
      rawSums && scratch
        ? (i, raw, mask) => addStoredRawRow(rawSums, estimator, raw, used[i].returns, mask, scratch)
        : undefined,
    // The replay's whitening fit marks the tokens that stray from the exact map, under these sums'
    // statistics, in a pass over the same rows: made here, in this pass (read only where normalised).
    visitAgain:
      rawSums && scratch
        ? (i, raw, advantages) => {
            strays.marker ??= new StrayMarker(
              whitenStatsOf(rawSums),
              stored.map((st) => lengthOf(st, "advantages") as number),
            );
            const { x, e } = storedRawRowOf(estimator, raw, used[i].returns, scratch);
            strays.marker.add(i, x, advantages, e);
          }
        : undefined,
  });
  if (rawSums) rememberRawSums(samples, stored, estimator, rawSums);
  if (strays.marker) rememberStray(samples, stored, estimator, strays.marker.result());
  // When the advantages do not tell, the replay does: try without normalisation, then with.
  if (normalization.normalized === null) {
    why.normalizeAdvantages = `normalize_advantages: ${normalization.reason}`;
    const flips = pending.alternatives.map((a) => ({ ...a, settings: { ...a.settings, normalizeAdvantages: true } }));
    pending.alternatives.push({ settings: { normalizeAdvantages: true }, note: "with normalize_advantages" }, ...flips);
  } else settings.normalizeAdvantages = normalization.normalized;
  if (normalization.normalized && normalization.note) result.notes.push(normalization.note);

  roundAndCheck(samples, stored, result, kl.zero, pending, replay);
  return result;
}

interface UsableSample {
  index: number;
  fit: FitSample;
  advantages: ArrayLike<number>;
}

/** The samples whose stored fields have the response's length, as the fits read them. */
/** Tokens the least-squares fits read at most. */
const FIT_TOKENS = 1 << 17;

/** Samples evenly spread over the batch, in order, until they hold `limit` tokens (all when they fit). */
function spreadOfSamples(fits: UsableSample[], limit: number): UsableSample[] {
  const total = fits.reduce((n, f) => n + (lengthOf(f.fit, "returns") as number), 0);
  if (total <= limit) return fits;
  const step = total / limit;
  const out: UsableSample[] = [];
  let tokens = 0;
  for (let k = 0; k < fits.length && tokens < limit; k += Math.max(1, Math.floor(step))) {
    out.push(fits[k]);
    tokens += lengthOf(fits[k].fit, "returns") as number;
  }
  return out;
}

function fitSamples(samples: ReplaySample[], stored: DumpOutputs[], notes: string[]): UsableSample[] {
  const out: UsableSample[] = [];
  samples.forEach((s, index) => {
    // Lengths and presence read off FIELD_LENGTHS where the sample says them: no field is read here.
    const R = tokensOf(s);
    const st = stored[index];
    if (!st || lengthOf(st, "returns") !== R || lengthOf(st, "advantages") !== R) {
      notes.push(`sample ${index}: no stored advantages and returns of its ${R} tokens; left out`);
      return;
    }
    const storedKl = lengthOf(st, "kl") ?? lengthOf(s, "kl");
    const hasKl = storedKl === R;
    const zeros = hasKl ? null : new Float64Array(R);
    const hasValues = lengthOf(s, "values") === R;
    // Each field read from the sample when asked for, not held here: a streamed dump's sample reads it
    // from its file (src/io/slimeDump/streamedFields.ts); a sample held whole gives the same array.
    const fit: FitSample = {
      reward: Math.fround(s.reward),
      get mask() {
        return s.lossMask;
      },
      get kl() {
        return zeros ?? ((st.kl ?? s.kl) as ArrayLike<number>);
      },
      get returns() {
        return st.returns;
      },
      values: undefined,
    };
    if (hasValues) Object.defineProperty(fit, "values", { get: () => s.values, enumerable: true });
    // Every row the fit reads holds R tokens.
    Object.defineProperty(fit, FIELD_LENGTHS, {
      value: hasValues ? { mask: R, kl: R, returns: R, values: R } : { mask: R, kl: R, returns: R },
    });
    out.push({
      index,
      fit,
      get advantages() {
        return st.advantages;
      },
    });
  });
  return out;
}

function readEstimator(
  used: FitSample[],
  fits: UsableSample[],
  samples: ReplaySample[],
  result: InferredSettings,
  klZero: boolean,
  pending: Pending,
): SlimeEstimator {
  const why = result.notIdentifiable;
  const withValues = used.filter((f) => f.values).length;
  if (withValues > 0 && withValues === used.length) {
    readPpo(used, fits, samples, result, pending);
    return "ppo";
  }
  if (withValues > 0) result.notes.push(`${withValues} of ${used.length} samples have values: not read as ppo`);
  why.lambd = "λ: no critic values (only ppo uses λ)";
  const broadcast = isBroadcastFit(used.filter((f) => Number.isFinite(f.reward)));
  if (broadcast) {
    why.advantageEstimator = klZero
      ? "advantage_estimator: grpo, gspo and cispo compute the same (and so does reinforce_plus_plus_baseline with kl_coef 0); kept grpo"
      : "advantage_estimator: grpo, gspo and cispo compute the same; kept grpo";
    why.gamma = "γ: grpo does not discount";
    if (!klZero) {
      why.klCoef =
        "kl_coef: grpo does not use the KL penalty in its advantages (the stored KL is not zero, so kl_coef is not 0)";
    }
    return "grpo";
  }
  const rpp = reinforcePPFit(used);
  const baseline = baselineFit(used);
  const rppChi = fitQuality(rpp);
  const baselineChi = fitQuality(baseline);
  if (Math.min(rppChi, baselineChi) > FIT_LIMIT) {
    result.notes.push(
      `no estimator reproduces the stored returns to float32 rounding (χ²/ν ${formatChi(rppChi)} as reinforce_plus_plus, ${formatChi(baselineChi)} as reinforce_plus_plus_baseline)`,
    );
  }
  const baselineFirst = isBetter(baseline, rpp);
  const whole = rpp.leftOut.length === 0 && baseline.leftOut.length === 0;
  if (whole && Math.max(rppChi, baselineChi) <= FIT_LIMIT) {
    why.advantageEstimator = `advantage_estimator: reinforce_plus_plus and reinforce_plus_plus_baseline both reproduce the returns to float32 rounding; kept the one the replay passes, ${baselineFirst ? "reinforce_plus_plus_baseline" : "reinforce_plus_plus"} first`;
    // The other reading, for the replay to try.
    const other = new InferredSettingsScratch();
    if (baselineFirst) {
      if (rpp.solved[0]) other.estimate("gamma", estimateOf(rpp, 0));
      if (!klZero && rpp.solved[1]) other.estimate("klCoef", estimateOf(rpp, 1));
      pending.alternatives.push(other.alternative("reinforce_plus_plus"));
    } else {
      if (!klZero && baseline.solved[0]) other.estimate("klCoef", estimateOf(baseline, 0));
      other.settings.gamma = SLIME_DEFAULTS.gamma;
      pending.alternatives.push(other.alternative("reinforce_plus_plus_baseline"));
    }
  }
  const oneToken = used.every((f) => f.returns.length <= 1 || lastUnmasked(f.mask) <= 0);
  if (baselineFirst) {
    noteLeftOut(baseline, fits, result, "R − β·kl");
    // The baseline's returns R − β·kl with each group's rewards std-normalised: grpo's reward stage
    // with the KL penalty grpo does not apply (a bug for the diagnosis to name), not the baseline.
    const grpo = klZero ? null : rewardsSayGrpo(samples);
    if (grpo) {
      result.notes.push(grpo);
      why.gamma = "γ: grpo does not discount";
      setKlCoef(baseline, 0, result, klZero, "the KL is zero everywhere", pending);
      return "grpo";
    }
    why.gamma = oneToken
      ? "γ: every sample has one token, so nothing is discounted (and reinforce_plus_plus_baseline does not discount)"
      : "γ: reinforce_plus_plus_baseline does not discount";
    setKlCoef(baseline, 0, result, klZero, "the KL is zero everywhere", pending);
    return "reinforce_plus_plus_baseline";
  }
  noteLeftOut(rpp, fits, result, "REINFORCE++'s reward-to-go");
  let fit: RobustFit = rpp;
  if (rpp.solved[0]) result.estimates.gamma = estimateOf(rpp, 0);
  else if (rpp.entangled[0]) {
    // Only a combination is known: γ at slime's default, kl_coef the one that goes with it.
    why.gamma = ENTANGLED.rppGamma;
    fit = reinforcePPFit(used, SLIME_DEFAULTS.gamma);
  } else {
    why.gamma = oneToken
      ? "γ: no trainable token has a later return to discount (every sample has one token)"
      : "γ: the returns do not determine it (no token is followed by a nonzero return)";
  }
  setKlCoef(fit, 1, result, klZero, "the KL is zero on every mask-1 token", pending);
  return "reinforce_plus_plus";
}

/** ppo: the context-parallel size whose reward placement fits, then β, γ and λ = μ/γ from its fit. */
function readPpo(
  used: FitSample[],
  fits: UsableSample[],
  samples: ReplaySample[],
  result: InferredSettings,
  pending: Pending,
): void {
  const why = result.notIdentifiable;
  const placement = inferPpoPlacement(
    fits.map((f) => samples[f.index]),
    (rewardAt) => ppoFit(used, rewardAt),
  );
  result.settings.contextParallelSize = placement.cpSize;
  result.contextParallelSizes = placement.tied;
  if (placement.untried.length > 0) {
    why.contextParallelSize = `contextParallelSize: the samples carry no total length to lay out ${placement.untried.join(", ")} with; kept ${placement.cpSize}`;
  } else if (placement.tied.length > 1) {
    why.contextParallelSize = `contextParallelSize: ${placement.tied.join(", ")} place every reward alike on this dump; kept ${placement.cpSize}`;
  }
  let fit = placement.fit;
  noteLeftOut(fit, fits, result, "ppo's GAE");
  if (fitQuality(fit) > FIT_LIMIT) {
    result.notes.push(
      `ppo's equations do not reproduce the stored returns to float32 rounding (χ²/ν ${formatChi(fitQuality(fit))})`,
    );
  }
  const oneToken = used.every((f) => f.returns.length <= 1);
  const first = fit;
  // A setting the returns do not determine is held at slime's default and the others are fitted
  // with it, so the replay uses values that go together: γ first, then γλ.
  const fixed: { gamma?: number; mu?: number } = {};
  const rewardAt = ppoRewardIndices(
    fits.map((f) => samples[f.index]),
    placement.cpSize,
  );
  if (!fit.solved[1]) {
    fixed.gamma = SLIME_DEFAULTS.gamma;
    fit = ppoFit(used, rewardAt, fixed);
  }
  if (fit.entangled[0] || fit.entangled[2]) {
    fixed.mu = SLIME_DEFAULTS.gamma * SLIME_DEFAULTS.lambd;
    fit = ppoFit(used, rewardAt, fixed);
  }
  if (first.solved[1]) result.estimates.gamma = estimateOf(first, 1);
  else if (oneToken) why.gamma = "γ: every sample has one token: nothing follows a token to discount";
  else if (first.entangled[1]) why.gamma = ENTANGLED.ppo("γ");
  else why.gamma = "γ: the values after each token are zero, so the returns do not separate γ from γλ";
  const lambd = first.solved[1] && first.solved[2] ? ratioEstimate(first) : null;
  if (lambd) result.estimates.lambd = lambd;
  else {
    if (oneToken) why.lambd = "λ: every sample has one token: nothing follows a token to discount";
    else if (first.entangled[2]) why.lambd = ENTANGLED.ppo("λ");
    else if (!first.solved[2]) why.lambd = "λ: no token is followed by a nonzero advantage to discount";
    else if (first.solved[1]) why.lambd = "λ: γ is too uncertain (its interval comes near 0) to divide γλ by";
    else why.lambd = "λ: γ is not identifiable, so λ = γλ / γ is not either";
    if (fixed.mu === undefined && fit.solved[2]) {
      const mu = estimateOf(fit, 2);
      const gamma = fixed.gamma ?? fit.theta[1];
      pending.values.lambd = { value: mu.value / gamma, uncertainty: mu.uncertainty / Math.abs(gamma) };
      const how = fixed.gamma === undefined ? `γ's estimate ${gamma}` : `γ at its default ${gamma}`;
      result.notes.push(`γλ = ${mu.value} ± ${mu.uncertainty}: replayed with ${how} and λ = γλ / γ`);
    }
  }
  setKlCoef(first, 0, result, false, "the KL is zero everywhere", pending);
  // With γ or γλ held, β is the one that goes with them.
  if (result.estimates.klCoef || first.entangled[0]) {
    if (fit !== first && fit.solved[0]) pending.values.klCoef = estimateOf(fit, 0);
  }
  if (first.entangled[0] && fit.solved[0]) {
    why.klCoef = `${ENTANGLED.klCoef}; replayed with the value that goes with γ and λ at their defaults`;
  }
}

/** Reasons for settings whose equations' columns are proportional: only a combination of them is known. */
const ENTANGLED = {
  rppGamma: "γ: the returns after each token are proportional to its KL penalty: γ and kl_coef enter only together",
  ppo: (name: string) =>
    `${name}: the values, advantages and KL after each token are proportional: β, γ and γλ enter only in combination`,
  klCoef: "kl_coef: the KL is proportional to the other terms of the recursion: it enters only in combination with γ",
};

function setKlCoef(
  fit: LeastSquaresFit,
  k: number,
  result: InferredSettings,
  klZero: boolean,
  unusedReason: string,
  pending: Pending,
): void {
  if (result.estimates.klCoef || result.notIdentifiable.klCoef) return;
  const e = !klZero && fit.solved[k] ? estimateOf(fit, k) : null;
  // An interval that reaches 0 does not even give β's sign: the KL penalty is lost in the rounding
  // of much larger rewards. The value still goes to the replay (it is the one that goes with γ).
  if (e && !(e.uncertainty < Math.abs(e.value))) {
    result.notIdentifiable.klCoef = `kl_coef: the returns give only ${e.value.toPrecision(3)} ± ${e.uncertainty.toPrecision(2)} (the KL penalty is within the float32 rounding of the rewards)`;
    pending.values.klCoef = e;
  } else if (e) result.estimates.klCoef = e;
  else if (!klZero && fit.entangled[k]) result.notIdentifiable.klCoef = ENTANGLED.klCoef;
  else result.notIdentifiable.klCoef = `kl_coef: ${unusedReason}`;
}

/**
 * A reading that reproduces the kept equations to float32 rounding beats one that does not; among
 * those that do, the one setting fewer equations aside explains more of the dump; then the smaller χ²/ν.
 */
function isBetter(a: RobustFit, b: RobustFit): boolean {
  const fitsA = fitQuality(a) <= FIT_LIMIT;
  const fitsB = fitQuality(b) <= FIT_LIMIT;
  if (fitsA !== fitsB) return fitsA;
  if (fitsA && a.leftOut.length !== b.leftOut.length) return a.leftOut.length < b.leftOut.length;
  return fitQuality(a) <= fitQuality(b);
}

/** Which equations the robust fit set aside, in words: where the dump departs from the recursion. */
function noteLeftOut(fit: RobustFit, fits: UsableSample[], result: InferredSettings, what: string): void {
  if (fit.leftOut.length === 0) return;
  const samples = [...new Set(fit.leftOut.map((tag) => fits[tagSample(tag)].index))];
  const shown = samples.slice(0, 8).join(", ") + (samples.length > 8 ? ", …" : "");
  const total = fit.equations + fit.leftOut.length;
  result.notes.push(
    `${fit.leftOut.length} of ${total} equations left out (in sample${samples.length === 1 ? "" : "s"} ${shown}): they do not follow ${what}; the settings are read from the rest (see the diagnosis)`,
  );
}

/**
 * The KL formula and log-probs read off the returns when no formula reproduces the stored kl
 * (klByFit): the fits then use that KL in place of the stored one.
 */
function readKlFromReturns(fits: UsableSample[], samples: ReplaySample[], result: InferredSettings, kl: KlRead): void {
  const used = fits.map((f) => f.fit);
  const inputs = fits.map((f) => samples[f.index]);
  const isPpo = used.every((f) => f.values);
  const fitWith = (withKl: FitSample[]): RobustFit => {
    if (isPpo) return inferPpoPlacement(inputs, (rewardAt) => ppoFit(withKl, rewardAt)).fit;
    const rpp = reinforcePPFit(withKl);
    const baseline = baselineFit(withKl);
    return isBetter(baseline, rpp) ? baseline : rpp;
  };
  const found = klByFit(inputs, used, fitWith, fitQuality, FIT_LIMIT);
  if (!found) return;
  fits.forEach((f, i) => {
    f.fit = found.used[i];
  });
  const why = result.notIdentifiable;
  delete why.klLossType;
  delete why.useRolloutLogprobs;
  kl.zero = false;
  result.settings.klLossType = found.type;
  result.settings.useRolloutLogprobs = found.rollout;
  const source = found.rollout ? "rollout_log_probs" : "log_probs";
  result.notes.push(
    `no KL formula reproduces the stored kl, but the returns fit with ${found.type} on ${source} (χ²/ν ${formatChi(fitQuality(found.fit))}): the stored kl is not the KL the run penalised (see the diagnosis)`,
  );
  const types = found.alike.filter((a) => a.rollout === found.rollout).map((a) => a.type);
  if (types.length > 0) {
    why.klLossType = `kl_loss_type: ${[found.type, ...types].join(" and ")} fit the returns alike; kept ${found.type}`;
  }
  if (found.alike.some((a) => a.rollout !== found.rollout)) {
    why.useRolloutLogprobs = "use_rollout_logprobs: rollout_log_probs and log_probs fit the returns alike";
  }
}

function fitQuality(fit: LeastSquaresFit): number {
  return fit.equations === 0 ? Number.POSITIVE_INFINITY : reducedChiSquare(fit);
}

function formatChi(x: number): string {
  return Number.isFinite(x) ? x.toPrecision(3) : "∞";
}

/** `returns − values` into `buffer`'s first tokens: valid until the next call. */
function rawPpoAdvantages(f: FitSample, buffer: Float64Array): Float64Array {
  const values = f.values as ArrayLike<number>;
  const returns = f.returns;
  const out = buffer.subarray(0, returns.length);
  for (let t = 0; t < out.length; t++) out[t] = returns[t] - values[t];
  return out;
}

/** |a| (+ |b|) into `buffer`'s first tokens: valid until the next call. */
function absSum(buffer: Float64Array, a: ArrayLike<number>, b?: ArrayLike<number>): Float64Array {
  // Loops, not Float64Array.from(a, fn): that goes through the iterator and a call per token.
  const out = buffer.subarray(0, a.length);
  if (b) for (let t = 0; t < out.length; t++) out[t] = Math.abs(a[t]) + Math.abs(b[t]);
  else for (let t = 0; t < out.length; t++) out[t] = Math.abs(a[t]);
  return out;
}

/** n_samples_per_prompt: the common size of the samples' prompt groups. */
function readGroups(samples: ReplaySample[], settings: SlimeSettings, why: InferredSettings["notIdentifiable"]): void {
  if (samples.length === 0 || samples.some((s) => s.group === undefined)) {
    why.nSamplesPerPrompt = "n_samples_per_prompt: the samples carry no prompt group";
    return;
  }
  const sizes = new Map<number, number>();
  for (const s of samples) sizes.set(s.group as number, (sizes.get(s.group as number) ?? 0) + 1);
  const distinct = [...new Set(sizes.values())].sort((a, b) => a - b);
  if (distinct.length === 1) settings.nSamplesPerPrompt = distinct[0];
  else why.nSamplesPerPrompt = `n_samples_per_prompt: the prompt groups have ${distinct.join(", ")} samples`;
}
