import { type Diagnosis, diagnose, KNOWN_VARIANTS, type KnownVariant, type SlimeSettings } from "../../core";
import type { UnderstoodDump } from "./dumpTypes";

/**
 * A train dump's stored fields against the known variants (core's diagnose): which known bug, if
 * any, reproduces where they depart from slime's semantics. Same samples as replayDump, with the
 * raw rewards and the stored rewards for the variants that change rewards.
 */
export function diagnoseDump(
  dump: UnderstoodDump,
  settings: SlimeSettings,
  variants: KnownVariant[] = KNOWN_VARIANTS,
): Diagnosis | null {
  if (dump.kind !== "train") return null;
  const samples = dump.samples.map((s) => ({
    reward: s.reward,
    rawReward: s.rawReward ?? undefined,
    lossMask: s.lossMask,
    totalLength: s.totalLength ?? undefined,
    dataParallelRank: s.dataParallelRank ?? undefined,
    logProbs: s.logProbs,
    refLogProbs: s.refLogProbs,
    rolloutLogProbs: s.rolloutLogProbs,
    kl: s.kl,
    values: s.values,
  }));
  const stored = dump.samples.map((s) => ({
    rewards: s.reward,
    advantages: s.advantages as Float64Array,
    returns: s.returns as Float64Array,
    kl: s.kl,
  }));
  return diagnose(samples, stored, settings, variants);
}
