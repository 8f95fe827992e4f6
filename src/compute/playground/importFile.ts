import { type CaseImport, importCaseFile } from "../../io/caseImport";
import type { ScanCase } from "../../io/caseSchema";
import { isCsvExport, readCsvExport } from "../../io/csvExportRead";
import { type CsvTable, csvLaneRows, csvRows, parseCsvTable } from "../../io/csvImport";
import { failure, IoError, type IoResult, success } from "../../io/ioError";
import { type NpyArray, npyRows, parseNpy } from "../../io/npyImport";
import type { Lane } from "../../io/playgroundProblem";
import { type PlaygroundRow, type PlaygroundState, parsePlaygroundState } from "../../io/playgroundState";
import {
  batchText,
  chooseDestination,
  DESTINATION_LABELS,
  type Destination,
  destinationText,
  type LaneTarget,
  plural,
  type TableShape,
} from "./importDestination";
import { openAnyCase } from "./openCase";

export type { LaneTarget } from "./importDestination";

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

/** A zip (torch's .pt, numpy's .npz) or a file named as a tensor file: the run view reads those. */
function isTensorFile(name: string, bytes: Uint8Array): boolean {
  return /\.(pt|pth|npz|safetensors)$/i.test(name) || (bytes[0] === 0x50 && bytes[1] === 0x4b);
}

/** The lane `auto` means for the menu's label: the one the estimator scans. */
export function resolveLane(lane: LaneTarget["lane"], state: PlaygroundState): Destination {
  if (lane !== "auto") return lane;
  return state.estimator === "reinforce_pp" ? "kl" : "rewards";
}

/** What an import gives; `S` is the state's form (packed into typed arrays to cross from the worker). */
export type Imported<S = PlaygroundState> =
  | { kind: "state"; state: S; notes: string[] }
  | { kind: "cases"; imported: CaseImport; opened: { state: S; case: ScanCase }; notes: string[] }
  /** Where the numbers go is unclear: the user picks one of the targets, and the file is read again. */
  | { kind: "question"; question: string; choices: ImportChoice[] };

/** One answer to an import's question: its button's label, the target the file is read again with, and its test id's tail. */
export interface ImportChoice {
  label: string;
  target: LaneTarget;
  /** `import-choice-<id>`; the target's lane when absent. */
  id?: string;
}

/** A CSV table or a .npy array, read but not yet placed. */
type Table = { kind: "csv"; table: CsvTable } | { kind: "npy"; array: NpyArray };

/**
 * Reads a file into the next state; never throws and never touches the current state: on any
 * problem the message names the file and the line, column, row, token, byte or field at fault.
 * Every import's notes say what was read (its shape) and where it went.
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
    const detail = isTensorFile(name, bytes)
      ? "a torch, .npz or .safetensors file (a slime dump?): open it in Your run (?view=run), which reads and replays those"
      : "not a file the playground reads; it takes case files (.json), CSV (.csv) and numpy arrays (.npy)";
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
  const text = kind === "csv" ? new TextDecoder().decode(bytes) : "";
  if (kind === "csv" && isCsvExport(text)) return importExport(text, name, current, target);
  const read = readTable(kind, bytes, name, text, target.firstLine);
  if (!read.ok) return read;
  const choice = chooseDestination(tableShape(read.value), target, current.estimator, rows);
  if ("question" in choice) {
    return success({
      kind: "question",
      question: `${name}: ${readText(read.value)}. ${choice.question}`,
      choices: choice.choices,
    });
  }
  // Only a line of mask values (0, 1) is in doubt: 0, 1, 2 is no mask row.
  const counting = read.value.kind === "csv" ? read.value.table.countingLine : null;
  const maskRow = counting?.every((cell) => cell === "0" || cell === "1") ?? false;
  if (choice.destination === "lossMask" && maskRow && target.firstLine === undefined) {
    return success({ kind: "question", ...firstLineQuestion(name, (counting ?? []).join(","), choice.target) });
  }
  const placed = place(read.value, choice.destination, choice.target.into, rows, name);
  if (!placed.ok) return placed;
  const candidate = { ...current, selectedRow: 0, data: { source: "inline" as const, rows: placed.value } };
  const parsed = parsePlaygroundState(candidate);
  if (!parsed.ok) return failure(new IoError("", `cannot be opened in the playground: ${parsed.error.message}`, name));
  const into = choice.destination === "outcome" ? "current" : choice.target.into;
  const notes = [
    `${name}: read ${readText(read.value)} into ${destinationText(choice.destination, into, placed.value)}`,
    ...read.notes,
    ...placed.notes,
  ];
  return { ok: true, value: { kind: "state", state: parsed.state, notes }, notes };
}

/**
 * A loss mask's first line of 0, 1 is a row of two tokens as much as pandas' labels of a frame of
 * two columns: the user says which, and the file is read again (never dropped silently).
 */
function firstLineQuestion(
  name: string,
  labels: string,
  target: LaneTarget,
): { question: string; choices: ImportChoice[] } {
  return {
    question: `${name}: line 1 reads ${labels}, which is both a loss-mask row and the column labels pandas writes for an unnamed frame (to_csv's default header). Is it`,
    choices: [
      { label: "data: a row of the mask", target: { ...target, firstLine: "data" }, id: "first-line-data" },
      { label: "pandas' column labels: skip it", target: { ...target, firstLine: "labels" }, id: "first-line-labels" },
    ],
  };
}

/** Scanlab's own CSV export, read back as the batch it was (its estimator and, where it says, chunk size). */
function importExport(text: string, name: string, current: PlaygroundState, target: LaneTarget): IoResult<Imported> {
  const read = readCsvExport(text, name);
  if (!read.ok) return read;
  const { estimator, rows, chunkSize } = read.value;
  const candidate = {
    ...current,
    estimator,
    chunkSize: chunkSize ?? current.chunkSize,
    selectedRow: 0,
    data: { source: "inline" as const, rows },
  };
  const parsed = parsePlaygroundState(candidate);
  if (!parsed.ok) return failure(new IoError("", `cannot be opened in the playground: ${parsed.error.message}`, name));
  const settings = [
    estimator === current.estimator ? null : `the estimator set to ${estimator}`,
    chunkSize === null || chunkSize === current.chunkSize ? null : `the chunk size to ${chunkSize}`,
  ].filter(Boolean);
  const notes = [
    `${name}: read as Scanlab's CSV export: a new batch of ${batchText(rows)} (${estimator} inputs and loss mask)${settings.length > 0 ? `, ${settings.join(" and ")}` : ""}; its result columns are computed again here`,
  ];
  if (target.lane !== "auto" || target.into !== "new") {
    notes.push(`${name}: an export holds a whole batch, so it was not read into one lane as the Import menu asks`);
  }
  return { ok: true, value: { kind: "state", state: parsed.state, notes }, notes };
}

function readTable(
  kind: "csv" | "npy",
  bytes: Uint8Array,
  name: string,
  text: string,
  firstLine: LaneTarget["firstLine"],
): IoResult<Table> {
  if (kind === "npy") {
    const parsed = parseNpy(bytes, name);
    if (!parsed.ok) return parsed;
    const notes = parsed.value.dtype === "float64" ? [`${name}: float64 values rounded to float32`] : [];
    return success({ kind: "npy", array: parsed.value }, notes);
  }
  const parsed = parseCsvTable(text, name, firstLine);
  return parsed.ok ? success({ kind: "csv", table: parsed.value }, parsed.notes) : parsed;
}

function tableShape(table: Table): TableShape {
  if (table.kind === "csv") {
    const lengths = table.table.rows.map((row) => row.length);
    return { rows: lengths.length, lengths, oneDimensional: false };
  }
  const { shape } = table.array;
  const [B, T] = shape.length === 1 ? [1, shape[0]] : shape;
  return { rows: B, lengths: new Array<number>(B).fill(T), oneDimensional: shape.length === 1 };
}

/** `a float32 array [4, 3000]`, `4 lines × 3000 columns`, `3 lines of 12–3000 values`. */
function readText(table: Table): string {
  if (table.kind === "npy") return `a ${table.array.dtype} array [${table.array.shape.join(", ")}]`;
  const lengths = table.table.rows.map((row) => row.length);
  const [min, max] = [Math.min(...lengths), Math.max(...lengths)];
  const lines = plural(lengths.length, "line");
  return min === max ? `${lines} × ${plural(max, "column")}` : `${lines} of ${min}–${max} values`;
}

function place(
  table: Table,
  destination: Destination,
  into: LaneTarget["into"],
  rows: PlaygroundRow[],
  name: string,
): IoResult<PlaygroundRow[]> {
  if (destination === "outcome") return placeOutcomes(table, rows, name);
  if (table.kind === "csv") {
    return into === "current"
      ? csvLaneRows(table.table, destination, rows, name)
      : csvRows(table.table, destination, name);
  }
  const fresh = npyRows(table.array, destination, name);
  if (!fresh.ok || into === "new") return fresh;
  const merged = mergeLane(fresh.value, rows, destination);
  return typeof merged === "string" ? failure(new IoError("", merged, name)) : success(merged);
}

/** One outcome reward per row of the current batch: a 1-D array, or a column (B × 1). */
function placeOutcomes(table: Table, rows: PlaygroundRow[], name: string): IoResult<PlaygroundRow[]> {
  const values =
    table.kind === "npy"
      ? table.array.shape.length === 1 || table.array.shape[1] === 1
        ? Array.from(table.array.data)
        : null
      : table.table.rows.every((row) => row.length === 1)
        ? table.table.rows.map((row) => row[0])
        : null;
  if (values === null) {
    const detail = "outcome rewards are one value per row: a 1-D array, or a column (B × 1)";
    return failure(new IoError("", `holds a table of tokens; ${detail}`, name));
  }
  if (values.length !== rows.length) {
    const detail = `holds ${plural(values.length, "outcome")}, but the batch has ${plural(rows.length, "row")} (one outcome per row)`;
    return failure(new IoError("", detail, name));
  }
  const at = values.findIndex((v) => !Number.isFinite(Math.fround(v)));
  if (at >= 0) {
    const where = table.kind === "npy" ? `row ${at}` : `line ${table.table.rowNumbers[at]}, column 1`;
    return failure(new IoError(where, `an outcome reward is a finite float32 number, got ${values[at]}`, name));
  }
  return success(rows.map((row, b) => ({ ...row, outcome: Math.fround(values[b]) })));
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

/** The import menus' choices and words. */
export const LANE_CHOICES: LaneTarget["lane"][] = ["auto", "rewards", "values", "kl", "lossMask", "outcome"];
export const INTO_CHOICES: LaneTarget["into"][] = ["new", "current"];
export const INTO_LABELS: Record<LaneTarget["into"], string> = {
  new: "a new batch (one row per line)",
  current: "the current batch (same shape)",
};

/** The lane menu's words: `auto` names the lane it resolves to, `outcome` says it takes one number per row. */
export function laneChoiceLabel(lane: LaneTarget["lane"], state: PlaygroundState): string {
  if (lane === "outcome") return `${DESTINATION_LABELS.outcome} (one per row: a 1-D array or a column)`;
  if (lane !== "auto") return DESTINATION_LABELS[lane];
  return state.estimator === "reinforce_pp"
    ? "the estimator's (asked: KL, or outcomes for a 1-D array)"
    : `the estimator's (${DESTINATION_LABELS[resolveLane("auto", state)]})`;
}
