import { type InferredSettings, RowArena, type SampleReplay, type SlimeSettings } from "../../core";
import { checkDump, type DumpCheck } from "./checkDump";
import type { UnderstoodDump } from "./dumpTypes";
import { judgeDumpRewards, replayDump } from "./replayDump";
import { shareOf } from "./stepSummary";

/**
 * A carried pass must be clear: every gap at most this share of its bound. A step nearer its
 * bounds is read alone, since its own reading might settle on other values (see checkRunStep).
 */
const CARRY_MARGIN = 0.5;

/**
 * The settings a run's steps share, read off one step's numbers and tried first on the next: a run
 * keeps its flags from step to step, and reading γ, λ, kl_coef and the estimator off every step
 * again costs a third of each step's check. One per run, in the order its steps are read.
 */
export interface RunSettingsMemo {
  /** The last step whose own settings passed its replay, and what was read off it; null before one. */
  known: { step: number; settings: SlimeSettings; inferred: InferredSettings } | null;
  /**
   * The rows of each step's replay under the known settings, one buffer for the run: a step's check
   * (its replay's `reference` and `bounds`) holds until the next step is checked.
   */
  rows: RowArena;
}

export function newRunSettingsMemo(): RunSettingsMemo {
  return { known: null, rows: new RowArena(0) };
}

/**
 * A run's row shows the verdict, never the bit-for-bit comparison with slime's float32 CPU scan (a
 * quarter of a passing step's check): the step view reads its step alone and shows it there.
 */
const ROW = { bits: false };

/** A step's check, and the step whose settings it was checked with when they were carried (null: its own). */
export interface RunStepCheck {
  check: DumpCheck;
  carriedFrom: number | null;
}

/**
 * One step of a run checked as checkDump checks it alone, with the settings already known tried
 * first: when every sample is within its float32 bound under them, clearly (every gap within half
 * its bound), and the stored rewards are what their reward stage gives (the rules of a verdict
 * alone), the step passes with them and its own settings are not read. Otherwise (a sample out of bound, a stage not checkable, a field of the
 * dump saying a setting differs, a different prompt group size) the step is checked alone, and its
 * settings become the known ones when they pass. Either way without the bit-for-bit comparison
 * (`check.bits` is null): a run's row does not show it.
 *
 * Why a carried pass is no false pass: a step passes under the known settings only by the rules a
 * step alone passes by, and a step that departs from slime's code fails under any settings its
 * numbers are not reproduced by. Alone, the settings are the ones its numbers give (least squares,
 * then the cleanest decimal within the uncertainty, replayed), and on a step the carried settings
 * reproduce well inside float32 rounding those are the same values, so the verdict and its figures
 * agree (a step near its bounds, where a reading alone might differ, is read alone);
 * `carriedSettings.test.ts` holds every committed dump, read as one run, to its verdict alone. A step
 * that fails is always checked alone, so its failure, diagnosis and advice are its own.
 */
export function checkRunStep(
  dump: UnderstoodDump,
  given: Partial<SlimeSettings>,
  step: number,
  memo: RunSettingsMemo,
): RunStepCheck {
  const known = memo.known;
  if (dump.kind === "train" && known && agrees(dump, given, known)) {
    const settings = { ...known.settings, ...given };
    const replay = replayDump(dump, settings, memo.rows);
    const rewards = judgeDumpRewards(dump, settings);
    if (replay.ok && replay.passed && (!rewards.checked || rewards.passed) && clearPass(replay.samples)) {
      // The replay just made is reused by checkDump (replayDump keeps a dump's last replay).
      const check = checkDump(dump, given, { ...known.inferred, settings }, ROW);
      if (check.passed) return { check, carriedFrom: known.step };
    }
  }
  const check = checkDump(dump, given, undefined, ROW);
  if (dump.kind === "train" && check.passed) memo.known = { step, settings: check.settings, inferred: check.inferred };
  return { check, carriedFrom: null };
}

/**
 * Every token of the advantages and returns (the fields γ, λ, kl_coef and the normalisation shape)
 * within CARRY_MARGIN of its tolerance, none of them held to the accuracy threshold for want of a
 * finite bound. The KL is not held to it: its formula is a discrete choice, replayed to the ulp.
 */
function clearPass(samples: SampleReplay[]): boolean {
  for (const s of samples) {
    for (const field of [s.advantages, s.returns]) {
      if (field.unbounded > 0 || !(shareOf(field.worstGap, field.worstBound) <= CARRY_MARGIN)) return false;
    }
  }
  return true;
}

/**
 * Whether nothing the dump states contradicts the known settings (a setting given holds for every step): what its fields decide
 * (settingsGuess: values → ppo, a zero KL → kl_coef 0, the KL formula, the context-parallel size of
 * per-rank files) and its prompt groups' size (n_samples_per_prompt, read alone from the groups).
 */
function agrees(
  dump: UnderstoodDump,
  given: Partial<SlimeSettings>,
  known: NonNullable<RunSettingsMemo["known"]>,
): boolean {
  for (const [key, value] of Object.entries(dump.settingsGuess) as [keyof SlimeSettings, unknown][]) {
    if (!(key in given) && known.settings[key] !== value) return false;
  }
  if ("nSamplesPerPrompt" in given) return true;
  const knownSize = known.inferred.notIdentifiable.nSamplesPerPrompt ? null : known.settings.nSamplesPerPrompt;
  return groupSize(dump) === knownSize;
}

/** The common size of the samples' prompt groups, as inferSettings reads n_samples_per_prompt; null when none. */
function groupSize(dump: UnderstoodDump): number | null {
  if (dump.samples.length === 0 || dump.samples.some((s) => s.group === null)) return null;
  const sizes = new Map<number, number>();
  for (const s of dump.samples) sizes.set(s.group as number, (sizes.get(s.group as number) ?? 0) + 1);
  const distinct = new Set(sizes.values());
  return distinct.size === 1 ? [...distinct][0] : null;
}
