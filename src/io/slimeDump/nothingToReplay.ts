import type { UnderstoodDump } from "./dumpTypes";

/**
 * What a file that is no slime train dump holds, in the words both the CLI and the run view use, so
 * the two never describe the same file differently.
 */

/** The lanes a plain file gave, with their row counts: "rewards (4 rows), lossMask (4 rows)", or "none". */
export function lanesFound(dump: UnderstoodDump): string {
  const lanes = dump.lanes;
  const found = lanes
    ? (["rewards", "values", "kl", "lossMask"] as const)
        .filter((k) => lanes[k])
        .map((k) => `${k} (${lanes[k]?.length} rows)`)
    : [];
  return found.join(", ") || "none";
}

/** Tensors named at most in one message: a file of 100,000 tensors made a 2.7 MB line. */
const MOST_NAMED = 20;

/** "; other tensors: a (float32, shape (3))", or nothing; past MOST_NAMED, "…, and N more". */
export function otherTensors(dump: UnderstoodDump): string {
  const unused = dump.lanes?.unused ?? [];
  if (unused.length === 0) return "";
  const more = unused.length > MOST_NAMED ? `, and ${unused.length - MOST_NAMED} more` : "";
  return `; other tensors: ${unused.slice(0, MOST_NAMED).join(", ")}${more}`;
}

/** A plain file (`torch.save({...})`, `.npz`, safetensors): what it is, what was found, and where it can go. */
export function notATrainDump(fileName: string, dump: UnderstoodDump): string {
  return `${fileName}: not a slime train dump, nothing to replay (lanes found: ${lanesFound(dump)}${otherTensors(dump)}); open it in the playground`;
}
