import { type CaseImport, importCaseFile } from "../../../io/caseImport";
import type { ScanCase } from "../../../io/caseSchema";
import { importCsv, importCsvLane } from "../../../io/csvImport";
import { failure, IoError, type IoResult } from "../../../io/ioError";
import { importNpy } from "../../../io/npyImport";
import type { Lane } from "../../../io/playgroundProblem";
import { type PlaygroundRow, type PlaygroundState, parsePlaygroundState } from "../../../io/playgroundState";
import { openAnyCase } from "./openCase";

export type FileKind = "case" | "csv" | "npy";

/** What a file is, by its name, then by its first bytes (numpy's magic, a JSON brace). */
export function fileKind(name: string, head: Uint8Array): FileKind | null {
  const lower = name.toLowerCase();
  if (lower.endsWith(".json")) return "case";
  if (lower.endsWith(".csv") || lower.endsWith(".tsv") || lower.endsWith(".txt")) return "csv";
  if (lower.endsWith(".npy")) return "npy";
  if (head[0] === 0x93 && String.fromCharCode(...head.subarray(1, 6)) === "NUMPY") return "npy";
  const first = String.fromCharCode(...head.subarray(0, 64)).trimStart()[0];
  if (first === "{") return "case";
  return null;
}

/** Where CSV and .npy numbers go: a new batch, or one lane of the current batch (same shape). */
export interface LaneTarget {
  /** `auto`: the lane the estimator scans (rewards; KL for REINFORCE++). */
  lane: Lane | "auto";
  into: "new" | "current";
}

export function resolveLane(lane: LaneTarget["lane"], state: PlaygroundState): Lane {
  if (lane !== "auto") return lane;
  return state.estimator === "reinforce_pp" ? "kl" : "rewards";
}

export type Imported =
  | { kind: "state"; state: PlaygroundState; notes: string[] }
  | { kind: "cases"; imported: CaseImport; opened: { state: PlaygroundState; case: ScanCase }; notes: string[] };

/**
 * Reads a file into the next state; never throws and never touches the current state: on any
 * problem the message names the file and the row, column, byte or field at fault.
 */
export function importFile(
  name: string,
  bytes: Uint8Array,
  current: PlaygroundState,
  rows: PlaygroundRow[],
  target: LaneTarget,
): IoResult<Imported> {
  const kind = fileKind(name, bytes.subarray(0, 64));
  if (kind === null) {
    const detail = "not a file the playground reads; it takes case files (.json), CSV (.csv) and numpy arrays (.npy)";
    return failure(new IoError("", detail, name));
  }
  if (kind === "case") {
    const imported = importCaseFile(bytes, name);
    if (!imported.ok) return imported;
    const opened = openAnyCase(imported.value, 0, current, name);
    if (!opened.ok) return opened;
    return {
      ok: true,
      value: { kind: "cases", imported: imported.value, opened: opened.value, notes: opened.notes },
      notes: [...imported.notes, ...opened.notes],
    };
  }
  const lane = resolveLane(target.lane, current);
  const batch =
    kind === "npy"
      ? importNpy(bytes, lane, name)
      : target.into === "current"
        ? importCsvLane(new TextDecoder().decode(bytes), lane, rows, name)
        : importCsv(new TextDecoder().decode(bytes), lane, name);
  if (!batch.ok) return batch;
  let next = batch.value;
  if (kind === "npy" && target.into === "current") {
    const merged = mergeLane(next, rows, lane);
    if (typeof merged === "string") return failure(new IoError("", merged, name));
    next = merged;
  }
  const candidate = { ...current, selectedRow: 0, data: { source: "inline" as const, rows: next } };
  const parsed = parsePlaygroundState(candidate);
  if (!parsed.ok) return failure(new IoError("", `cannot be opened in the playground: ${parsed.error.message}`, name));
  return { ok: true, value: { kind: "state", state: parsed.state, notes: batch.notes }, notes: batch.notes };
}

/** One lane of `fresh` put into the current rows, which must have the same shape. */
function mergeLane(fresh: PlaygroundRow[], rows: PlaygroundRow[], lane: Lane): PlaygroundRow[] | string {
  if (fresh.length !== rows.length) return `has ${fresh.length} rows, but the batch has ${rows.length}`;
  for (const [b, row] of rows.entries()) {
    if (fresh[b].length !== row.length) {
      return `row ${b} has ${fresh[b].length} values, but batch row ${b} has ${row.length} tokens`;
    }
  }
  return rows.map((row, b) => ({ ...row, [lane]: fresh[b][lane] }));
}
