import Papa from "papaparse";
import { describeThrown, failure, IoError, type IoResult, MAX_IMPORT_BYTES, success } from "./ioError";
import type { Lane } from "./playgroundProblem";
import { FLOAT32_MAX, MAX_CELLS, MAX_ROWS, MAX_TOKENS, type PlaygroundRow } from "./playgroundState";

/**
 * A CSV of rows × tokens: one batch row per line, one token per column, read into one lane
 * (rewards, values, KL or loss mask). A first line of words is a header and skipped; so is a first
 * line of exactly 0, 1, …, N − 1, the column labels pandas writes for an unnamed frame
 * (`to_csv(index=False)`), and, with `index=True`, the index column after an empty header cell.
 * Any other first line of numbers is data (with a note when it looks like labels).
 * Rows may be ragged: empty cells at the end of a line make that row shorter; an empty cell
 * before the last value is an error. Places in the file are "line L, column C", counted from 1 as
 * an editor or a spreadsheet shows them (the header line included); places in the batch are
 * "row b, token t", counted from 0 as in the tensors.
 */
export interface CsvTable {
  /** The header's cells, when the first line is one. */
  header: string[] | null;
  /** The numbers of every data row, each as long as its row. */
  rows: number[][];
  /** The line number (from 1, as in the file) of each data row: empty lines are skipped. */
  rowNumbers: number[];
  /**
   * The cells of a first line of 0, 1, …, N − 1 with no index cell before them: pandas' labels, or
   * a row of numbers that happens to count (a loss mask's `0,1`). Null for any other first line.
   */
  countingLine: string[] | null;
}

/** What a first line of 0, 1, …, N − 1 is: `labels` (skipped, the default) or `data` (kept), as the user said. */
export type FirstLine = "data" | "labels";

/** What the first line and column turned out to be. */
interface TableLayout {
  header: string[] | null;
  /** Data starts on this record. */
  first: number;
  /** The first column is pandas' index: dropped from every data row. */
  indexColumn: boolean;
  notes: string[];
  countingLine: string[] | null;
}

/** A decimal number as numpy and spreadsheets write it (no hex, no thousands separators). */
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const NON_FINITE = /^[+-]?(nan|inf|infinity)$/i;

/** Parses the text of a CSV into numbers; never throws. `source` (the file name) starts every message. */
export function parseCsvTable(text: string, source = "CSV file", firstLine: FirstLine = "labels"): IoResult<CsvTable> {
  try {
    return parseTable(text, source, firstLine);
  } catch (thrown) {
    return failure(new IoError("", `could not be read (${describeThrown(thrown)})`, source));
  }
}

/**
 * The cells of every line of a CSV (a byte-order mark dropped, the delimiter guessed), or why it is
 * no well-formed CSV within the import limit; shared with the reader of Scanlab's own export.
 */
export function csvRecords(text: string, source: string): IoResult<string[][]> {
  const fail = (where: string, detail: string) => failure<string[][]>(new IoError(where, detail, source));
  if (text.length > MAX_IMPORT_BYTES)
    return fail("", `is larger than the import limit of ${MAX_IMPORT_BYTES / 2 ** 20} MiB`);
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const parsed = Papa.parse<string[]>(body, { dynamicTyping: false, skipEmptyLines: false });
  const fatal = parsed.errors.find((e) => e.code !== "UndetectableDelimiter");
  if (fatal) return fail(`line ${(fatal.row ?? 0) + 1}`, `${fatal.message.replace(/\.$/, "")} (not a well-formed CSV)`);
  return success(parsed.data);
}

function parseTable(text: string, source: string, firstLine: FirstLine): IoResult<CsvTable> {
  const fail = (where: string, detail: string) => failure<CsvTable>(new IoError(where, detail, source));
  const parsed = csvRecords(text, source);
  if (!parsed.ok) return parsed;
  const records = parsed.value;
  const { header, first, indexColumn, notes, countingLine } = tableLayout(records, source, firstLine);
  const rows: number[][] = [];
  const rowNumbers: number[] = [];
  let cells = 0;
  for (let r = first; r < records.length; r++) {
    const record = indexColumn ? records[r].slice(1) : records[r];
    const skipped = indexColumn ? 1 : 0;
    let end = record.length;
    while (end > 0 && record[end - 1].trim() === "") end--;
    if (end === 0) continue; // an empty line
    const where = (c: number) => `line ${r + 1}, column ${c + 1 + skipped}`;
    const values = new Array<number>(end);
    for (let c = 0; c < end; c++) {
      const cell = record[c].trim();
      if (cell === "") return fail(where(c), "empty cell before the end of the row (only trailing cells may be empty)");
      // numpy writes nan, inf and -inf; they are read (the playground reports and runs them, §b.4).
      if (NON_FINITE.test(cell)) {
        values[c] = nonFiniteValue(cell);
        continue;
      }
      if (!NUMBER.test(cell)) return fail(where(c), `${JSON.stringify(clip(cell))} is not a number`);
      const value = Number(cell);
      // numpy, pandas and Scanlab's own export print FLT_MAX as 3.4028235e+38, a little above it:
      // what counts is whether the value rounds to a finite float32, as every input is rounded.
      if (Math.abs(Math.fround(value)) > FLOAT32_MAX)
        return fail(where(c), `${cell} is outside the float32 range (±3.4e38)`);
      values[c] = value;
    }
    if (end > MAX_TOKENS) return fail(`line ${r + 1}`, `has ${end} values, above the limit of ${MAX_TOKENS} tokens`);
    rows.push(values);
    rowNumbers.push(r + 1);
    if (rows.length > MAX_ROWS) return fail(`line ${r + 1}`, `more than ${MAX_ROWS} rows (the limit)`);
    cells = Math.max(cells, end);
  }
  if (rows.length === 0) return fail("", "has no rows of numbers");
  if (rows.length * cells > MAX_CELLS) {
    return fail("", `${rows.length} rows padded to ${cells} tokens is above the limit of ${MAX_CELLS} cells`);
  }
  return success({ header, rows, rowNumbers, countingLine }, notes);
}

/**
 * Whether the first line is a header (words; or pandas' labels 0, 1, …, N − 1, after an empty cell
 * when an index column follows) and the first column pandas' index (0, 1, 2, … down the lines).
 */
function tableLayout(records: string[][], source: string, firstLine: FirstLine): TableLayout {
  const none: TableLayout = { header: null, first: 0, indexColumn: false, notes: [], countingLine: null };
  if (records.length === 0) return none;
  const top = records[0].map((cell) => cell.trim());
  // A first line of words is a header only when numbers follow; alone, it is a row with bad cells.
  const hasData = records.slice(1).some((record) => record.some((cell) => cell.trim() !== ""));
  if (!hasData) return none;
  const labelled = top[0] === "" && top.length > 1 && isCounting(top.slice(1));
  if (isCounting(top) && firstLine === "data") {
    return {
      ...none,
      countingLine: top,
      notes: [`${source}: line 1 (${countingText(top)}) was read as data, as asked`],
    };
  }
  if (isCounting(top) || labelled) {
    const indexColumn = labelled && hasIndexColumn(records);
    const notes = [
      `${source}: line 1 (${countingText(labelled ? top.slice(1) : top)}) was read as pandas' column labels and skipped`,
    ];
    if (indexColumn) notes.push(`${source}: column 1 (0, 1, 2, …) was read as pandas' index and dropped`);
    return { header: top, first: 1, indexColumn, notes, countingLine: labelled ? null : top };
  }
  if (isHeader(top)) {
    const indexColumn = ["", "index", "unnamed: 0"].includes(top[0].toLowerCase()) && hasIndexColumn(records);
    const notes = [`${source}: the first line was read as a header and skipped`];
    if (indexColumn) notes.push(`${source}: column 1 (0, 1, 2, …) was read as an index and dropped`);
    return { header: top, first: 1, indexColumn, notes, countingLine: null };
  }
  if (isCounting(top, 1)) {
    return {
      ...none,
      notes: [
        `${source}: line 1 (${countingText(top)}) looks like column labels; it was kept as data (a first line of 0, 1, …, N − 1 is skipped as pandas' labels)`,
      ],
    };
  }
  return none;
}

/** Cells that read exactly start, start + 1, …: at least two of them. */
function isCounting(cells: string[], start = 0): boolean {
  return cells.length >= 2 && cells.every((cell, i) => cell === String(i + start));
}

function countingText(cells: string[]): string {
  return cells.length <= 4 ? cells.join(", ") : `${cells[0]}, ${cells[1]}, …, ${cells[cells.length - 1]}`;
}

/** Every data line starts with its own position, 0, 1, 2, …: pandas' default index. */
function hasIndexColumn(records: string[][]): boolean {
  const lines = records.slice(1).filter((record) => record.some((cell) => cell.trim() !== ""));
  return lines.length > 0 && lines.every((record, i) => record[0]?.trim() === String(i));
}

function nonFiniteValue(cell: string): number {
  if (/nan/i.test(cell)) return Number.NaN;
  return cell.startsWith("-") ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
}

/** A header has no numeric cell and at least one non-empty one. */
function isHeader(record: string[]): boolean {
  const cells = record.map((cell) => cell.trim());
  return cells.some((cell) => cell !== "") && !cells.some((cell) => NUMBER.test(cell) || NON_FINITE.test(cell));
}

function clip(cell: string): string {
  return cell.length > 30 ? `${cell.slice(0, 30)}…` : cell;
}

/**
 * Checks that a table fits a lane: a loss mask holds only 0 and 1. Values are rounded to float32
 * (the playground's inputs are float32 values).
 */
function laneValues(table: CsvTable, lane: Lane, source: string): IoResult<number[][]> {
  const rows: number[][] = [];
  for (const [r, row] of table.rows.entries()) {
    if (lane === "lossMask") {
      const c = row.findIndex((v) => v !== 0 && v !== 1);
      if (c >= 0)
        return failure(
          new IoError(`line ${table.rowNumbers[r]}, column ${c + 1}`, `a loss mask is 0 or 1, got ${row[c]}`, source),
        );
      rows.push(row);
    } else {
      rows.push(row.map(Math.fround));
    }
  }
  return success(rows);
}

/** A new batch from a CSV: one row per line, the given lane filled, the other lanes absent (zeros). */
export function importCsv(text: string, lane: Lane, source = "CSV file"): IoResult<PlaygroundRow[]> {
  const table = parseCsvTable(text, source);
  if (!table.ok) return table;
  const rows = csvRows(table.value, lane, source);
  return rows.ok ? success(rows.value, table.notes) : rows;
}

/** A new batch from a parsed CSV table (see importCsv). */
export function csvRows(table: CsvTable, lane: Lane, source = "CSV file"): IoResult<PlaygroundRow[]> {
  const values = laneValues(table, lane, source);
  if (!values.ok) return values;
  return success(values.value.map((v): PlaygroundRow => ({ length: v.length, [lane]: v })));
}

/**
 * Fills one lane of an existing batch from a CSV (e.g. GAE values after the rewards): the CSV must
 * have one line per batch row, each as long as that row.
 */
export function importCsvLane(
  text: string,
  lane: Lane,
  batch: PlaygroundRow[],
  source = "CSV file",
): IoResult<PlaygroundRow[]> {
  const table = parseCsvTable(text, source);
  if (!table.ok) return table;
  const rows = csvLaneRows(table.value, lane, batch, source);
  return rows.ok ? success(rows.value, table.notes) : rows;
}

/** One lane of the current batch from a parsed CSV table (see importCsvLane). */
export function csvLaneRows(
  table: CsvTable,
  lane: Lane,
  batch: PlaygroundRow[],
  source = "CSV file",
): IoResult<PlaygroundRow[]> {
  const values = laneValues(table, lane, source);
  if (!values.ok) return values;
  if (values.value.length !== batch.length) {
    return failure(new IoError("", `has ${values.value.length} rows, but the batch has ${batch.length}`, source));
  }
  for (const [b, row] of batch.entries()) {
    if (values.value[b].length !== row.length) {
      const detail = `has ${values.value[b].length} values, but batch row ${b} has ${row.length} tokens`;
      return failure(new IoError(`line ${table.rowNumbers[b]}`, detail, source));
    }
  }
  return success(batch.map((row, b) => ({ ...row, [lane]: values.value[b] })));
}
