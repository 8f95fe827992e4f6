import type { ReplaySample, SlimeSettings } from "../../core";
import { buildCaseFile } from "../caseBuilder";
import type { CaseFile, SlimeDumpCase } from "../caseSchema";
import { failure, IoError, type IoResult, success } from "../ioError";
import { settingsToCase } from "../slimeDumpSettings";
import type { UnderstoodDump } from "./dumpTypes";
import { dumpReplayInputs } from "./replayDump";

/**
 * A train dump as one golden case of kind slime_dump (cases/SCHEMA.md): the settings under slime's
 * names, every sample's inputs as `replayDump` hands them to core's replaySlime, and the dump's
 * stored advantages, returns and kl as the values under test. `scanlab check` replays it exactly
 * as `scanlab dump` replays the dump, so the case fails exactly when the dump does; every
 * estimator has a case, since the replay covers them all. Numbers are kept as they are, NaN and
 * ±Infinity included: write the file with caseFileText, which spells those as text.
 */
export function exportDumpCase(dump: UnderstoodDump, settings: SlimeSettings, name: string): IoResult<CaseFile> {
  if (dump.kind !== "train") {
    return failure(new IoError("", `a ${dump.kind} file has no stored advantages: only a train dump is a case`, name));
  }
  const { samples, stored } = dumpReplayInputs(dump);
  const missing = stored.findIndex((s) => !s.advantages || !s.returns);
  if (missing >= 0) {
    return failure(new IoError("", `sample ${missing} stores no advantages or returns: nothing to check`, name));
  }
  // understandDump refuses any other mask value; a case must not round one to 0 or 1 behind its back.
  const badMask = samples.findIndex((s) => Array.from(s.lossMask).some((m) => m !== 0 && m !== 1));
  if (badMask >= 0) return failure(new IoError("", `sample ${badMask}: a loss mask value other than 0 and 1`, name));
  const c: SlimeDumpCase = {
    name,
    kind: "slime_dump",
    note: `slime train dump ${name}: ${samples.length} samples; the values under test are the dump's own stored advantages, returns and kl, replayed against Scanlab's float64 slime`,
    settings: settingsToCase(settings),
    samples: samples.map(sampleFields),
    stored: stored.map((s) => ({
      advantages: list(s.advantages),
      returns: list(s.returns),
      ...(s.kl ? { kl: list(s.kl) } : {}),
    })),
  };
  return success(buildCaseFile([c], `exported by scanlab dump from ${name}`));
}

/** A ReplaySample under the case's names; a field the sample lacks is left out, as replaySlime reads it. */
function sampleFields(s: ReplaySample): SlimeDumpCase["samples"][number] {
  const tokens = {
    log_probs: s.logProbs,
    ref_log_probs: s.refLogProbs,
    rollout_log_probs: s.rolloutLogProbs,
    kl: s.kl,
    values: s.values,
  };
  const present = Object.entries(tokens).flatMap(([key, v]) => (v ? [[key, list(v)] as const] : []));
  return {
    reward: s.reward,
    ...(s.rawReward !== undefined ? { raw_reward: s.rawReward } : {}),
    ...(s.group !== undefined ? { group: s.group } : {}),
    loss_mask: Array.from(s.lossMask) as (0 | 1)[],
    ...(s.dataParallelRank !== undefined ? { data_parallel_rank: s.dataParallelRank } : {}),
    ...(s.totalLength !== undefined ? { total_length: s.totalLength } : {}),
    ...Object.fromEntries(present),
  };
}

function list(values: ArrayLike<number>): number[] {
  return Array.from(values);
}
