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
