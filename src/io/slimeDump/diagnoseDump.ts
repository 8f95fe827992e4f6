import { type Diagnosis, diagnose, KNOWN_VARIANTS, type KnownVariant, type SlimeSettings } from "../../core";
import type { UnderstoodDump } from "./dumpTypes";
import { dumpReplayInputs } from "./replayDump";

/**
 * A train dump's stored fields against the known variants (core's diagnose): which known bug, if
 * any, reproduces where they depart from slime's semantics. The replay's own samples (raw rewards
 * and prompt groups included), with the stored rewards for the variants that change rewards.
 */
export function diagnoseDump(
  dump: UnderstoodDump,
  settings: SlimeSettings,
  variants: KnownVariant[] = KNOWN_VARIANTS,
): Diagnosis | null {
  if (dump.kind !== "train") return null;
  const { samples, stored } = dumpReplayInputs(dump);
  const fields = stored.map((s, i) => ({ ...s, rewards: dump.samples[i].reward }));
  return diagnose(samples, fields, settings, variants);
}

/**
 * The diagnosis under the settings in force, else, when nothing is named there and the run's
 * context-parallel size was read rather than given, under each other size the dump's numbers
 * cannot tell apart (`sizes`): a bug that only shows under context parallelism (each CP rank
 * whitening its own slice) is named with the size it needs, and the sentence says so.
 */
export function diagnoseOverCpSizes(
  dump: UnderstoodDump,
  settings: SlimeSettings,
  sizes: readonly number[],
): Diagnosis | null {
  const first = diagnoseDump(dump, settings);
  if (!first || first.best) return first;
  for (const contextParallelSize of sizes) {
    if (contextParallelSize === settings.contextParallelSize) continue;
    const trial = diagnoseDump(dump, { ...settings, contextParallelSize });
    if (!trial?.best) continue;
    const why = `with context-parallel size ${contextParallelSize}, which the dump's numbers do not otherwise show: give --context-parallel-size to say`;
    return { ...trial, sentence: `${trial.sentence} (${why})` };
  }
  return first;
}
