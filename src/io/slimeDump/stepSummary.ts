import type { FieldVerdict } from "../../core";
import type { DumpCheck } from "./checkDump";
import type { UnderstoodDump } from "./dumpTypes";

/** The token whose gap is the largest share of its bound, over a step's samples: where the step is closest to failing (or fails worst). */
export interface WorstGap {
  gap: number;
  bound: number;
  /** gap / bound (Infinity where the bound is 0 and the gap is not, or the gap is not finite). */
  share: number;
  /** Its sample, as an index into the dump's samples, and its token. */
  sample: number;
  token: number;
}

export type StepVerdict = "passed" | "failed" | "not checked";

/** One rollout step of a run in one row: what the run directory's table and `scanlab dump DIR` show. */
export interface StepSummary {
  step: number;
  samples: number;
  /** Response tokens, summed over the samples. */
  tokens: number;
  verdict: StepVerdict;
  /** Why it failed (the first stage that departs) or why it was not checked; null when it passed. */
  why: string | null;
  /** Null where nothing was replayed. */
  worst: { advantages: WorstGap | null; returns: WorstGap | null };
  /**
   * The raw rewards where every sample has one (what a run's reward curve shows), else the reward
   * slime trained on (group-normalised for grpo-style estimators); null where no sample has a finite one.
   */
  reward: { of: "raw" | "trained"; mean: number; std: number } | null;
  /** The stored `kl` averaged over the tokens with loss mask 1; null where the dump stores none or no token counts. */
  klMean: number | null;
  length: { mean: number; max: number };
  /** Samples whose rollout status is `truncated`, as a share; null where no status is known (no rollout dump). */
  truncatedShare: number | null;
  /** 1 − tokens / (samples × longest): the share of slime's padded `[B, max_len]` scan that is padding. */
  paddingShare: number;
}

/**
 * A step's row, from its dump and its check: typed-array loops over the samples' fields, nothing
 * per token allocated. `check` null: not replayed (a rollout dump alone, a refused file), with `why`.
 */
export function summariseStep(
  step: number,
  dump: UnderstoodDump,
  check: DumpCheck | null,
  notChecked: string | null = null,
): StepSummary {
  const samples = dump.samples;
  let tokens = 0;
  let maxLength = 0;
  let klSum = 0;
  let klTokens = 0;
  let hasKl = false;
  let statuses = 0;
  let truncated = 0;
  for (const s of samples) {
    tokens += s.responseLength;
    if (s.responseLength > maxLength) maxLength = s.responseLength;
    const kl = s.kl;
    if (kl) {
      hasKl = true;
      const mask = s.lossMask;
      const n = Math.min(kl.length, mask.length, s.responseLength);
      for (let t = 0; t < n; t++) {
        if (mask[t] !== 0) {
          klSum += kl[t];
          klTokens++;
        }
      }
    }
    const status = s.rollout?.status ?? null;
    if (status !== null) {
      statuses++;
      if (status === "truncated") truncated++;
    }
  }
  const replay = check?.replay;
  const replayed = replay?.ok ? replay.samples : null;
  return {
    step,
    samples: samples.length,
    tokens,
    ...verdictOf(check, notChecked),
    worst: {
      advantages: replayed ? worstOf(replayed.map((r) => r.advantages)) : null,
      returns: replayed ? worstOf(replayed.map((r) => r.returns)) : null,
    },
    reward: rewardOf(dump),
    klMean: hasKl && klTokens > 0 ? klSum / klTokens : null,
    length: { mean: samples.length > 0 ? tokens / samples.length : 0, max: maxLength },
    truncatedShare: statuses > 0 ? truncated / samples.length : null,
    paddingShare: maxLength > 0 ? 1 - tokens / (samples.length * maxLength) : 0,
  };
}

function verdictOf(check: DumpCheck | null, notChecked: string | null): { verdict: StepVerdict; why: string | null } {
  if (!check) return { verdict: "not checked", why: notChecked ?? "not replayed" };
  if (!check.replay.ok) return { verdict: "not checked", why: check.replay.error };
  if (check.passed) return { verdict: "passed", why: null };
  return { verdict: "failed", why: check.diagnosis?.best ? check.diagnosis.sentence : check.firstDeparture };
}

function worstOf(fields: FieldVerdict[]): WorstGap | null {
  let worst: WorstGap | null = null;
  for (let sample = 0; sample < fields.length; sample++) {
    const f = fields[sample];
    if (f.worstToken < 0) continue;
    const share = shareOf(f.worstGap, f.worstBound);
    if (!worst || share > worst.share)
      worst = { gap: f.worstGap, bound: f.worstBound, share, sample, token: f.worstToken };
  }
  return worst;
}

/** A gap as a share of its bound, for ranking steps and samples: infinite where the bound checks nothing. */
export function shareOf(gap: number, bound: number): number {
  if (!Number.isFinite(gap)) return Number.POSITIVE_INFINITY;
  if (gap === 0) return 0;
  // An infinite or NaN bound checks nothing: such a gap is not "0 of its bound", it is unbounded.
  return bound > 0 && Number.isFinite(bound) ? gap / bound : Number.POSITIVE_INFINITY;
}

/** Mean and population standard deviation, in two passes (a reward's scale differs by run). */
function rewardOf(dump: UnderstoodDump): StepSummary["reward"] {
  const samples = dump.samples;
  const raw = samples.length > 0 && samples.every((s) => s.rawReward !== null && Number.isFinite(s.rawReward));
  const values = new Float64Array(samples.length);
  let n = 0;
  for (const s of samples) {
    const r = raw ? (s.rawReward as number) : s.reward;
    if (Number.isFinite(r)) values[n++] = r;
  }
  if (n === 0) return null;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += values[i];
  const mean = sum / n;
  let squares = 0;
  for (let i = 0; i < n; i++) squares += (values[i] - mean) ** 2;
  return { of: raw ? "raw" : "trained", mean, std: Math.sqrt(squares / n) };
}
