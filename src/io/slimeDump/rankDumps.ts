import { describeThrown, failure, IoError, type IoResult, success } from "../ioError";
import type { UnderstoodDump } from "./dumpTypes";
import { mergeRankRoots, type RankFile, type RankFileUse, type RankMergeOptions } from "./rankMerge";
import { mergedTrainDump } from "./understandDump";

export type { RankFile, RankFileUse, RankMergeOptions } from "./rankMerge";

/** One step of slime's first dump format, its rank files merged. */
export interface MergedRankDump {
  /** The step as a train dump: the same DumpSample fields as a format-2 `train_data/{id}.pt`, in rollout order. */
  dump: UnderstoodDump;
  step: number;
  /** The files as one name: `train_data/5_{0,1,2,3}.pt`. */
  label: string;
  /** The run's context-parallel size, as the slices' lengths (or the caller) say. */
  cpSize: number;
  /** Every file given, used or not, and why. */
  files: RankFileUse[];
}

/**
 * The per-rank files of one step (`train_data/{rollout_id}_{rank}.pt`, each read with
 * readTensorFile) merged into the train dump the replay reads, or refused naming the files and
 * what to give: two steps mixed, a rank twice, a rank missing whose slice or samples are needed.
 * Pure and synchronous: runs in the run view's worker as in the CLI.
 */
export function mergeRankDumps(files: readonly RankFile[], options: RankMergeOptions = {}): IoResult<MergedRankDump> {
  try {
    const merged = mergeRankRoots(files, options);
    return success({
      dump: mergedTrainDump(merged),
      step: merged.step,
      label: merged.label,
      cpSize: merged.cpSize,
      files: merged.files,
    });
  } catch (error) {
    if (error instanceof IoError) return failure(error);
    const names = files.map((f) => f.source).join(", ");
    return failure(new IoError("", `could not be merged (${describeThrown(error)})`, names));
  }
}
