import { float64Of } from "../batch";
import { conventionErrorBounds } from "../conventions/conventionBounds";
import { SUBNORMAL_STEP, UNIT_ROUNDOFF } from "../errorBound";
import { magnitudeScan } from "../outputBounds";
import { tokensOf } from "./fieldLengths";
import { klErrorBound } from "./klReplay";
import { ppoBoundRows } from "./ppoRows";
import { ppoRewardIndices, type ReplayReference } from "./replayReference";
import { type RowArena, rowOf } from "./rowArena";
import { isBroadcastEstimator, type ReplaySample, type SlimeSettings } from "./settings";
import { slimeWhitenBounds, slimeWhitenStats, type WhitenBoundStats } from "./slimeWhitenBound";

/** Per-element bounds on |slime's float32 value − the float64 reference|, shaped like the outputs. */
export interface ReplayBounds {
  advantages: Float64Array[];
  returns: Float64Array[];
  /** For the dump's stored `kl`, where the reference recomputed it from log-probs. */
  kl: (Float64Array | null)[];
  /** The advantages' bounds before `--normalize-advantages` (equal to `advantages` without it). */
  rawAdvantages: Float64Array[];
  /** With normalisation: the whitening's shared scalars and their bounds. */
  whiten: WhitenBoundStats | null;
}

/**
 * The float32 run's error bounds, in three parts:
 * 1. the estimator's own roundings on the KL slime actually used (its stored `kl`): core's
 *    bounds for slime's chunked REINFORCE++ and GAE (conventionErrorBounds, chunk 128 over the
 *    right-padded batch), and for the broadcast estimators the reward's rounding to float32 (and
 *    for the baseline the float32 `R − β·kl`);
 * 2. that KL's own float32 error against the float64 KL of the reference, carried through the
 *    estimator (linear: β·E scanned with γ for REINFORCE++, with γλ for GAE, as is for the baseline);
 * 3. with normalisation, slime's float32 whitening over the batch (slimeWhitenBounds).
 */
export function replayBounds(
  samples: ReplaySample[],
  settings: SlimeSettings,
  reference: ReplayReference,
  /** Each data-parallel rank's longest sample when `samples` are a window of the batch (rankLengths). */
  paddedLengths?: Map<number, number>,
  /** Where the KL's and ppo's rows are taken from, when they are dropped with the window (RowArena). */
  arena?: RowArena,
): ReplayBounds {
  const { advantageEstimator: estimator, gamma, lambd, klCoef } = settings;
  const u = UNIT_ROUNDOFF.float32;
  const eta = SUBNORMAL_STEP.float32;
  const beta = Math.abs(klCoef);
  const masks = samples.map((s) => s.lossMask);
  const rewards = samples.map((s) => s.reward);
  // The KL the float32 run used: the dump's when stored (as read: float32 values are only read as
  // numbers here, or widened exactly where a row is built from them), else the reference's.
  const usedKl = samples.map((s, i): ArrayLike<number> => {
    const kl = s.kl;
    return klCoef !== 0 && kl && kl.length === reference.kl[i].length ? kl : reference.kl[i];
  });
  const klBounds = samples.map((s, i) => {
    if (!reference.klRecomputed[i]) return null;
    const logProbs = (settings.useRolloutLogprobs ? s.rolloutLogProbs : s.logProbs) as ArrayLike<number>;
    return klErrorBound(
      logProbs,
      s.refLogProbs as ArrayLike<number>,
      settings.klLossType,
      rowOf(arena, logProbs.length),
    );
  });
  const klError = (i: number) => klBounds[i] ?? new Float64Array(usedKl[i].length);

  let returns: Float64Array[];
  let raw: Float64Array[];
  if (isBroadcastEstimator(estimator)) {
    returns = usedKl.map((k, i) => new Float64Array(k.length).fill(u * Math.abs(rewards[i]) + eta));
    raw = returns;
  } else if (estimator === "reinforce_plus_plus_baseline") {
    const betaRounding = Math.abs(klCoef - Math.fround(klCoef));
    returns = usedKl.map((k, i) => {
      const e = klError(i);
      const R = Math.abs(rewards[i]);
      return float64Of(k).map((x, t) => {
        const penalty = beta * Math.abs(x);
        return 2 * u * (R + penalty) + betaRounding * Math.abs(x) + 2 * u * penalty + beta * e[t] + eta;
      });
    });
    raw = returns;
  } else if (estimator === "ppo" && gamma * lambd !== 0) {
    ({ returns, raw } = ppoBounds(samples, settings, usedKl, klBounds, paddedLengths, arena));
  } else {
    const gae = estimator === "ppo";
    const params = { gamma, lambd, klCoef, normalize: false };
    const rewardAt = gae ? ppoRewardIndices(samples, settings.contextParallelSize) : undefined;
    const own = { returns: [] as Float64Array[], advantages: [] as Float64Array[] };
    // Each data-parallel rank padded and scanned its own samples: chunks align to its longest one.
    for (const group of byDataParallelRank(samples)) {
      const batch = {
        rewards: group.map((i) => rewards[i]),
        kl: group.map((i) => float64Of(usedKl[i])),
        lossMasks: group.map((i) => masks[i]),
        // Only their magnitudes are read (no whitening here), so float32 values as stored do.
        values: gae ? group.map((i) => samples[i].values as Float64Array) : undefined,
      };
      const at = rewardAt && group.map((i) => rewardAt[i]);
      const kind = gae ? "gae" : "reinforce_pp";
      const padded = paddedLengths?.get(samples[group[0]].dataParallelRank ?? 0);
      const bounds = conventionErrorBounds("slime", kind, batch, params, "float32", undefined, at, padded);
      group.forEach((i, j) => {
        own.returns[i] = bounds.returns[j];
        own.advantages[i] = bounds.advantages[j];
      });
    }
    const discount = gae ? gamma * lambd : gamma;
    // The KL's own error carried through the scan, added to each token's bound in place (loops: 4 M tokens).
    returns = own.returns;
    raw = gae ? own.advantages : returns;
    usedKl.forEach((_, i) => {
      const e = klError(i);
      const mask = masks[i];
      const magnitudes = new Float64Array(e.length);
      for (let t = 0; t < e.length; t++) magnitudes[t] = beta * e[t] * (gae ? 1 : mask[t]);
      const carried = magnitudeScan({ magnitudes }, discount);
      const rowReturns = returns[i];
      for (let t = 0; t < carried.length; t++) rowReturns[t] += carried[t];
      if (gae) {
        const rowRaw = raw[i];
        for (let t = 0; t < carried.length; t++) rowRaw[t] += carried[t];
      }
    });
  }
  const whiten = settings.normalizeAdvantages ? slimeWhitenStats(reference.rawAdvantages, raw, masks) : null;
  const advantages = whiten ? slimeWhitenBounds(reference.rawAdvantages, raw, masks, whiten, arena) : raw;
  return { advantages, returns, kl: klBounds, rawAdvantages: raw, whiten };
}

/**
 * ppo's bounds a sample at a time (ppoBoundRows): the operations of conventionErrorBounds' slime GAE
 * and of the KL's carried error below, in one loop with no intermediate rows (the same bits). Each
 * sample is scanned at its data-parallel rank's padded length.
 */
function ppoBounds(
  samples: ReplaySample[],
  settings: SlimeSettings,
  usedKl: ArrayLike<number>[],
  klBounds: (Float64Array | null)[],
  paddedLengths: Map<number, number> | undefined,
  arena: RowArena | undefined,
): { returns: Float64Array[]; raw: Float64Array[] } {
  const rewardAt = ppoRewardIndices(samples, settings.contextParallelSize);
  const lengths = paddedLengths ?? rankLengths(samples);
  const beta = Math.abs(settings.klCoef);
  const discount = settings.gamma * settings.lambd;
  const returns: Float64Array[] = [];
  const raw: Float64Array[] = [];
  samples.forEach((s, i) => {
    const scanLength = lengths.get(s.dataParallelRank ?? 0) ?? usedKl[i].length;
    const values = s.values as ArrayLike<number>;
    const rows = ppoBoundRows(
      usedKl[i],
      values,
      s.reward,
      rewardAt[i],
      klBounds[i],
      beta,
      settings.gamma,
      discount,
      scanLength,
      arena,
    );
    returns.push(rows.returns);
    raw.push(rows.advantages);
  });
  return { returns, raw };
}

/** Sample indices grouped by data-parallel rank, in the dump's order (one group when ranks are not known). */
export function byDataParallelRank(samples: ReplaySample[]): number[][] {
  const groups = new Map<number, number[]>();
  samples.forEach((s, i) => {
    const rank = s.dataParallelRank ?? 0;
    // Pushed, never copied: a copy per sample made 60,000 samples take minutes.
    const group = groups.get(rank);
    if (group) group.push(i);
    else groups.set(rank, [i]);
  });
  return [...groups.values()];
}

/** Each data-parallel rank's longest sample: the length its batch was padded to. */
export function rankLengths(samples: ReplaySample[]): Map<number, number> {
  const lengths = new Map<number, number>();
  for (const s of samples) {
    const rank = s.dataParallelRank ?? 0;
    lengths.set(rank, Math.max(lengths.get(rank) ?? 0, tokensOf(s)));
  }
  return lengths;
}
