import {
  type DumpOutputs,
  type InferredSettings,
  inferSettings,
  isBroadcastEstimator,
  judgeRewardStage,
  KL_LOSS_TYPES,
  type ReplayResult,
  type ReplaySample,
  type RewardStageVerdict,
  type RowArena,
  replaySlime,
  SLIME_DEFAULTS,
  SLIME_ESTIMATORS,
  type SlimeSettings,
} from "../../core";
import type { DumpSample, UnderstoodDump } from "./dumpTypes";
import { streamedOutputs, streamedReplaySample } from "./streamedFields";

/**
 * A train dump replayed with the run's settings: slime's advantages and returns recomputed in
 * float64 (src/core/slimeReplay) and every sample's stored values judged against them. The result
 * is in the dump's sample order. Pure and worker-friendly.
 */
export function replayDump(dump: UnderstoodDump, settings: SlimeSettings, rows?: RowArena): ReplayResult {
  if (dump.kind !== "train") {
    return { ok: false, error: `a ${dump.kind} file has no stored advantages to replay (a train dump has)` };
  }
  const { samples, stored } = dumpReplayInputs(dump);
  return replayOnce(dump, samples, stored, settings, rows);
}

/**
 * Reading the settings off a dump ends with a replay of the settings it settles on, and the check
 * then replays those same settings: at 4 M tokens a replay costs seconds, so the last replay of
 * each dump is kept (weakly: it goes with the dump) and given again for the same settings. An
 * understood dump's arrays are never changed, so the same settings give the same replay.
 */
const lastReplay = new WeakMap<UnderstoodDump, { key: string; result: ReplayResult }>();

function replayOnce(
  dump: UnderstoodDump,
  samples: ReplaySample[],
  stored: DumpOutputs[],
  settings: SlimeSettings,
  /** Where the replay's rows are taken from (core's ReplayOptions.rows): they hold until its next replay. */
  rows?: RowArena,
): ReplayResult {
  const key = settingsKey(settings);
  const last = lastReplay.get(dump);
  if (last?.key === key) return last.result;
  const result = replaySlime(
    samples,
    stored,
    settings,
    windowed.has(dump) ? { windowTokens: WINDOW_TOKENS } : { rows },
  );
  lastReplay.set(dump, { key, result });
  return result;
}

/**
 * Dumps whose replays are judged a window of samples at a time (core's ReplayOptions): their memory
 * is the window's, not the batch's, and each sample's reference and bounds are recomputed when read.
 * The CLI's report reads the verdicts, and the reference a sample at a time; the run view reads every
 * sample's reference and bounds once, after the verdict (its window replayed once for the samples in it).
 */
const windowed = new WeakSet<UnderstoodDump>();

/** About 256 K tokens a window: 2 MB per float64 row of the window, some ten of them alive at once. */
const WINDOW_TOKENS = 1 << 18;

export function replayInWindows(dump: UnderstoodDump): void {
  windowed.add(dump);
}

function settingsKey(settings: SlimeSettings): string {
  return (Object.keys(settings) as (keyof SlimeSettings)[])
    .sort()
    .map((k) => `${k}=${String(settings[k])}`)
    .join(";");
}

/**
 * What replaySlime takes from a dump: each sample's inputs and its stored values (empty where the
 * dump stores none: the verdict then fails). One function for the replay, the settings read off the
 * dump and the slime_dump case export (dumpCaseExport), so all three see the same numbers.
 */
export function dumpReplayInputs(dump: UnderstoodDump): { samples: ReplaySample[]; stored: DumpOutputs[] } {
  // The same arrays each time for one dump, so that core's replay recognises a batch it just replayed.
  const known = replayInputs.get(dump);
  if (known) return known;
  const inputs = replayInputsOf(dump);
  replayInputs.set(dump, inputs);
  return inputs;
}

const replayInputs = new WeakMap<UnderstoodDump, { samples: ReplaySample[]; stored: DumpOutputs[] }>();

function replayInputsOf(dump: UnderstoodDump): { samples: ReplaySample[]; stored: DumpOutputs[] } {
  const stored = dump.samples.map(
    (s) =>
      streamedOutputs(s) ?? {
        advantages: s.advantages ?? new Float64Array(0),
        returns: s.returns ?? new Float64Array(0),
        kl: s.kl,
      },
  );
  return { samples: replaySamples(dump), stored };
}

/** A dump's samples as the core replay takes them (absent where the dump says null). */
export function replaySamples(dump: UnderstoodDump): ReplaySample[] {
  return dump.samples.map((s) => streamedReplaySample(s) ?? replaySample(s));
}

function replaySample(s: DumpSample): ReplaySample {
  return {
    reward: s.reward,
    lossMask: s.lossMask,
    totalLength: s.totalLength ?? undefined,
    dataParallelRank: s.dataParallelRank ?? undefined,
    logProbs: s.logProbs,
    refLogProbs: s.refLogProbs,
    rolloutLogProbs: s.rolloutLogProbs,
    kl: s.kl,
    // Read as numbers only (a float32 value widens exactly); the scans' precision is the rewards'.
    values: s.values,
    rawReward: s.rawReward ?? undefined,
    group: s.group ?? undefined,
  };
}

/**
 * The dump's stored `rewards` judged against slime's reward post-processing replayed from its raw
 * rewards and recovered prompt groups (core's judgeRewardStage): each group normalised on its own.
 */
export function judgeDumpRewards(dump: UnderstoodDump, settings: SlimeSettings): RewardStageVerdict {
  if (dump.kind !== "train") return { checked: false, why: `a ${dump.kind} file has no stored rewards to judge` };
  // The replay's samples, kept per dump: a fresh replaySamples widened every KL and value to float64
  // again (70 MB at 4.4 M tokens) for a stage that reads only the rewards.
  return judgeRewardStage(dumpReplayInputs(dump).samples, settings);
}

/**
 * The settings a train dump was written with, read off its own numbers (core's inferSettings):
 * γ, λ and kl_coef with their uncertainties, the estimator, normalisation, KL formula,
 * context-parallel size and n_samples_per_prompt, and why any of them cannot be read. A dump of
 * another kind says nothing.
 */
export function inferDumpSettings(dump: UnderstoodDump): InferredSettings {
  if (dump.kind !== "train") {
    const result = inferSettings([], []);
    result.notes.push(`a ${dump.kind} file has no stored advantages to read settings from (a train dump has)`);
    return result;
  }
  const { samples, stored } = dumpReplayInputs(dump);
  return inferSettings(samples, stored, (s, o, settings) => replayOnce(dump, s, o, settings));
}

/** The settings a dump was written with, as far as the user and the dump say: the user's over the guess over slime's defaults. */
export function dumpSettings(dump: UnderstoodDump, given: Partial<SlimeSettings>): SlimeSettings {
  return { ...SLIME_DEFAULTS, ...dump.settingsGuess, ...given };
}

export interface SettingsTrial {
  settings: SlimeSettings;
  passed: boolean;
  /** Samples within their bounds, of the dump's. */
  samplesPassed: number;
}

/**
 * Which estimator, normalisation and KL formula reproduce the dump, with γ, λ and kl_coef as
 * given: every combination replayed, those that pass first. (The scalar settings cannot be read
 * off a dump; a wrong γ or kl_coef shows as no combination passing.)
 */
export function searchSettings(dump: UnderstoodDump, base: SlimeSettings): SettingsTrial[] {
  const trials: SettingsTrial[] = [];
  const hasValues = dump.samples.every((s) => s.values !== undefined);
  for (const advantageEstimator of SLIME_ESTIMATORS) {
    // gspo and cispo compute what grpo does here; ppo needs the critic's values.
    if (advantageEstimator === "gspo" || advantageEstimator === "cispo") continue;
    if (advantageEstimator === "ppo" && !hasValues) continue;
    for (const normalizeAdvantages of [false, true]) {
      const klTypes = isBroadcastEstimator(advantageEstimator) || base.klCoef === 0 ? [base.klLossType] : KL_LOSS_TYPES;
      for (const klLossType of klTypes) {
        const settings = { ...base, advantageEstimator, normalizeAdvantages, klLossType };
        const result = replayDump(dump, settings);
        const samplesPassed = result.ok ? result.samples.filter((s) => s.passed).length : 0;
        trials.push({ settings, passed: result.ok && result.passed, samplesPassed });
      }
    }
  }
  return trials.sort((a, b) => Number(b.passed) - Number(a.passed) || b.samplesPassed - a.samplesPassed);
}
