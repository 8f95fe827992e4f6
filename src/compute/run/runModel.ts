import { bySeverity, type FieldVerdict, type ReplayResult, type SlimeSettings, sampleSeverity } from "../../core";
import type { UnderstoodDump } from "../../io/slimeDump";
import { notATrainDump } from "../../io/slimeDump/nothingToReplay";

/** The batch at a glance: what a run's samples are, and what scanning them as one padded batch costs. */
export interface BatchGlance {
  samples: number;
  tokens: number;
  minLength: number;
  maxLength: number;
  meanLength: number;
  /** Over the finite rewards; null when the file holds none (a plain file has no samples). */
  rewards: { min: number; max: number; mean: number } | null;
  /** Share of response tokens with loss mask 0 (tool output, observations, removed samples). */
  maskedShare: number;
  /** Samples whose rollout status is `truncated` (known only with the rollout dump). */
  truncated: number | null;
  /**
   * Share of a `[B, max length]` batch that is padding: slime pads every sample to the longest
   * before its chunked scans (the seed's second risk), so this is work done on zeros.
   */
  paddingShare: number;
}

/** One sample's line in the table. */
export interface SampleRow {
  index: number;
  rolloutPosition: number | null;
  length: number;
  reward: number;
  maskedShare: number;
  status: string | null;
  /** Null when nothing was replayed (a rollout or plain file, or settings slime would refuse). */
  verdict: SampleVerdict | null;
}

export interface SampleVerdict {
  passed: boolean;
  advantages: FieldVerdict;
  returns: FieldVerdict;
  kl: FieldVerdict | null;
  /** The largest gap/bound over the sample's fields: how far from its bound the worst token is (> 1: over). */
  worstFraction: number;
  /** The field and token of that worst gap. */
  worstField: "advantages" | "returns" | "kl";
  worstToken: number;
  /** A NaN or ±Inf among the stored values where the reference is finite. */
  nonFinite: boolean;
  /** Its place in a worst-first order (core's sampleSeverity). */
  severity: [number, number, number];
}

export function batchGlance(dump: UnderstoodDump): BatchGlance {
  const lengths = dump.samples.map((s) => s.responseLength);
  const rewards = dump.samples.map((s) => s.reward).filter(Number.isFinite);
  const tokens = lengths.reduce((sum, n) => sum + n, 0);
  const maxLength = lengths.reduce((max, n) => Math.max(max, n), 0);
  const masked = dump.samples.reduce((sum, s) => sum + maskedTokens(s.lossMask), 0);
  const statuses = dump.samples.map((s) => s.rollout?.status ?? null);
  const known = statuses.some((status) => status !== null);
  return {
    samples: lengths.length,
    tokens,
    minLength: lengths.reduce((min, n) => Math.min(min, n), lengths.length > 0 ? Number.POSITIVE_INFINITY : 0),
    maxLength,
    meanLength: lengths.length > 0 ? tokens / lengths.length : 0,
    rewards:
      rewards.length > 0
        ? {
            min: rewards.reduce((a, b) => Math.min(a, b)),
            max: rewards.reduce((a, b) => Math.max(a, b)),
            mean: rewards.reduce((a, b) => a + b, 0) / rewards.length,
          }
        : null,
    maskedShare: tokens > 0 ? masked / tokens : 0,
    truncated: known ? statuses.filter((status) => status === "truncated").length : null,
    paddingShare: maxLength > 0 ? 1 - tokens / (lengths.length * maxLength) : 0,
  };
}

function maskedTokens(lossMask: ArrayLike<number>): number {
  let masked = 0;
  for (let t = 0; t < lossMask.length; t++) if (lossMask[t] === 0) masked += 1;
  return masked;
}

/** Every sample's line, in the dump's order, with its verdict where the replay ran. */
export function sampleRows(dump: UnderstoodDump, replay: ReplayResult | null): SampleRow[] {
  return dump.samples.map((s, index): SampleRow => {
    const replayed = replay?.ok ? replay.samples[index] : undefined;
    const masked = maskedTokens(s.lossMask);
    return {
      index,
      rolloutPosition: s.rolloutPosition,
      length: s.responseLength,
      reward: s.reward,
      maskedShare: s.responseLength > 0 ? masked / s.responseLength : 0,
      status: s.rollout?.status ?? null,
      verdict: replayed ? sampleVerdict(replayed) : null,
    };
  });
}

function sampleVerdict(s: {
  passed: boolean;
  advantages: FieldVerdict;
  returns: FieldVerdict;
  kl: FieldVerdict | null;
}): SampleVerdict {
  const fields = [
    ["advantages", s.advantages],
    ["returns", s.returns],
    ...(s.kl ? [["kl", s.kl] as const] : []),
  ] as const;
  let worst: (typeof fields)[number] = fields[0];
  let worstFraction = -1;
  for (const field of fields) {
    const fraction = fractionOf(field[1]);
    if (fraction > worstFraction) {
      worstFraction = fraction;
      worst = field;
    }
  }
  return {
    passed: s.passed,
    advantages: s.advantages,
    returns: s.returns,
    kl: s.kl,
    worstFraction: Math.max(0, worstFraction),
    worstField: worst[0],
    worstToken: worst[1].worstToken,
    nonFinite: fields.some(([, f]) => !Number.isFinite(f.maxGap)),
    severity: sampleSeverity([s.advantages, s.returns, s.kl]),
  };
}

/** gap/bound at the worst token: 0 for an exact match, Infinity for a non-finite value or a zero bound passed. */
export function fractionOf(field: FieldVerdict): number {
  if (field.worstToken < 0) return 0;
  if (!Number.isFinite(field.worstGap)) return Number.POSITIVE_INFINITY;
  if (field.worstGap === 0) return 0;
  return field.worstBound > 0 ? field.worstGap / field.worstBound : Number.POSITIVE_INFINITY;
}

/**
 * The table's order, what a user should look at first: failing samples first, then by the largest
 * gap as a share of its field's scale (a sample whose bound underflowed never outranks a gap 10⁴×
 * larger), then by how close to its tolerance the worst token came; unreplayed last.
 */
export function worstFirst(rows: readonly SampleRow[]): SampleRow[] {
  return [...rows].sort((a, b) => {
    if (!a.verdict || !b.verdict) return Number(!a.verdict) - Number(!b.verdict) || a.index - b.index;
    return bySeverity(a.verdict.severity, b.verdict.severity) || a.index - b.index;
  });
}

/** A rollout dump opened alone: what it lacks and what to choose with it. */
export function rolloutOnly(fileName: string, dump: UnderstoodDump): string {
  const n = dump.samples.length;
  return `${fileName}: a rollout dump (${n} Sample${n === 1 ? "" : "s"}) holds no advantages; choose its train dump too (both files at once: train_data/<id>.pt and rollout_data/<id>.pt), paired by rollout_position`;
}

/** `run-summary`: plain text naming the sample count and how many are within their bounds. */
export function summaryText(
  fileName: string,
  dump: UnderstoodDump,
  glance: BatchGlance,
  rows: readonly SampleRow[],
  replay: ReplayResult | null,
  settings: SlimeSettings,
  /** The whole check's verdict (the reward stage included); null when there was none. */
  passed: boolean | null = null,
): string {
  if (dump.kind === "plain") return `${notATrainDump(fileName, dump)}.`;
  if (dump.kind === "rollout") return `${rolloutOnly(fileName, dump)}.`;
  const head = `${fileName} (train dump): ${glance.samples} sample${glance.samples === 1 ? "" : "s"}, ${glance.tokens} response tokens`;
  if (!replay) return `${head}.`;
  if (!replay.ok) return `${head}; not replayed, nothing is passed: ${replay.error}`;
  const within = rows.filter((row) => row.verdict?.passed).length;
  const over = glance.samples - within;
  const nonFinite = rows.filter((row) => row.verdict?.nonFinite).length;
  const verdict =
    over === 0 && passed === false
      ? `every sample's advantages and returns within their float32 bounds, but the stored rewards depart from the raw rewards' post-processing`
      : over === 0
        ? `all ${glance.samples} within their float32 bounds of the float64 reference`
        : `${within} of ${glance.samples} within their float32 bounds, ${over} over${nonFinite > 0 ? ` (${nonFinite} with NaN or ±Inf)` : ""}`;
  return `${head}; ${settings.advantageEstimator}${settings.normalizeAdvantages ? " with normalized advantages" : ""}: ${verdict}.`;
}
