import { TensorFileError } from "../tensorFiles/tensorFileError";
import { isDict, type PyDict, type PyValue } from "../tensorFiles/tensorTypes";

/**
 * slime's first train-dump format (ed2f3a999, July 2025, to d38dc29c9, August 2026; docs/dumps.md):
 * every rank of the trainer saved `{rollout_id, rank, rollout_data}` to
 * `train_data/{rollout_id}_{rank}.pt`, its own data-parallel shard's columns with the model's
 * per-token fields cut to its context-parallel slice. This file tells such files apart, by name
 * (for grouping a folder) and by structure (what decides once a file is read).
 */

/** The name slime gave a per-rank file: `{rollout_id}_{rank}.pt`. */
export const RANK_FILE_NAME = /^(\d+)_(\d+)\.pt$/;

/** A file's step and rank as its name says them; null when the name is no per-rank file's. */
export function rankFileName(path: string): { step: number; rank: number } | null {
  const match = RANK_FILE_NAME.exec(baseName(path));
  if (!match) return null;
  const step = Number(match[1]);
  const rank = Number(match[2]);
  return Number.isSafeInteger(step) && Number.isSafeInteger(rank) ? { step, rank } : null;
}

export interface RankFileGroups {
  /** Per step (rollout id, ascending), its per-rank files in rank order. */
  steps: Map<number, string[]>;
  /** Every other path, in the order given: for the run directory's own pairing (train_data/4.pt, rollout_data/…). */
  notRankFiles: string[];
}

/**
 * A run directory's per-rank files grouped by step, by name (`3_0.pt`, `3_1.pt` → step 3); the
 * content still decides once a file is read (mergeRankDumps checks each file's own rollout_id and
 * rank). Every path lands in exactly one of the two lists.
 */
export function groupRankFiles(paths: readonly string[]): RankFileGroups {
  const named: { path: string; step: number; rank: number }[] = [];
  const notRankFiles: string[] = [];
  for (const path of paths) {
    const name = rankFileName(path);
    if (name) named.push({ path, ...name });
    else notRankFiles.push(path);
  }
  named.sort((a, b) => a.step - b.step || a.rank - b.rank || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const steps = new Map<number, string[]>();
  for (const { path, step } of named) {
    const list = steps.get(step);
    if (list) list.push(path);
    else steps.set(step, [path]);
  }
  return { steps, notRankFiles };
}

/** Whether a file's object is a per-rank train dump: a dict of `rollout_id`, `rank` and a `rollout_data` dict. */
export function isRankDump(root: PyValue): root is PyDict {
  return isDict(root) && root.has("rollout_id") && root.has("rank") && isDict(root.get("rollout_data"));
}

/** Which step and rank a per-rank train dump says it is (its `rollout_id` and `rank`), refused when not whole numbers. */
export function rankDumpIdentity(root: PyDict, source: string): { step: number; rank: number } {
  return { step: wholeNumber(root, "rollout_id", source), rank: wholeNumber(root, "rank", source) };
}

function wholeNumber(root: PyDict, key: string, source: string): number {
  const value = root.get(key);
  const n = typeof value === "bigint" && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
  if (typeof n === "number" && Number.isSafeInteger(n) && n >= 0) return n;
  throw new TensorFileError(`field ${key}`, `is ${String(value)}, not a whole number`, source);
}

export function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
}
