import { csvRecords } from "./csvImport";
import { describeThrown, failure, IoError, type IoResult, success } from "./ioError";
import { type Estimator, FLOAT32_MAX, MAX_CELLS, MAX_ROWS, MAX_TOKENS, type PlaygroundRow } from "./playgroundState";

/**
 * Reads back Scanlab's own CSV export (csvExport.ts): one line per valid token,
 * `row, token, chunk, loss_mask, <inputs>, <outputs…>`. Read as a plain table it would be a batch of
 * one row per token with the row numbers as rewards; read here it is the batch it was: its rows,
 * their loss masks and the inputs of the estimator it was exported from. The result columns are not
 * read (the page computes them again), and the chunk column gives the chunk size back where it can.
 */
export interface ExportedBatch {
  estimator: Estimator;
  rows: PlaygroundRow[];
  /** The chunk size the `chunk` column was numbered with; null where it does not say (one chunk per row). */
  chunkSize: number | null;
}

/** The columns every export starts with. */
const LEADING = ["row", "token", "chunk", "loss_mask"] as const;

/** Each estimator's input columns and the outputs it exports (csvExport's inputColumns and padded()). */
const LAYOUTS: { estimator: Estimator; inputs: string[]; outputs: string[] }[] = [
  { estimator: "gae", inputs: ["reward", "value"], outputs: ["advantages", "returns"] },
  { estimator: "discounted", inputs: ["reward"], outputs: ["returns"] },
  { estimator: "reinforce_pp", inputs: ["kl", "outcome"], outputs: ["returns", "token_level_rewards"] },
];

/** The columns written per output, the float32 serial pair optional. */
const OUTPUT_SUFFIXES = ["serial_f64", "chunked", "abs_err", "rel_err"];
const SERIAL32_SUFFIXES = ["serial_f32", "serial_f32_abs_err"];

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const NON_FINITE = /^[+-]?(nan|inf|infinity)$/i;
const INDEX = /^\d+$/;

/** Whether a CSV's first line is an export's header (`row,token,chunk,loss_mask,…`): then readCsvExport reads it. */
export function isCsvExport(text: string): boolean {
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const end = body.search(/\r?\n/);
  const first = (end < 0 ? body : body.slice(0, end)).split(",").map((cell) => cell.trim().replace(/^"|"$/g, ""));
  return LEADING.every((name, i) => first[i] === name);
}

/** Reads an export back into its batch; never throws. Messages name the line (from 1, the header's included). */
export function readCsvExport(text: string, source = "CSV file"): IoResult<ExportedBatch> {
  try {
    return read(text, source);
  } catch (thrown) {
    return failure(new IoError("", `could not be read (${describeThrown(thrown)})`, source));
  }
}

function read(text: string, source: string): IoResult<ExportedBatch> {
  const fail = (where: string, detail: string) => failure<ExportedBatch>(new IoError(where, detail, source));
  const records = csvRecords(text, source);
  if (!records.ok) return records;
  const parsed = { data: records.value };
  const header = (parsed.data[0] ?? []).map((cell) => cell.trim());
  const layout = headerLayout(header);
  if (typeof layout === "string") return fail("line 1", layout);
  const { estimator, inputs } = layout;

  const rows: PlaygroundRow[] = [];
  /** Per row: the chunk index of each token, to recover the chunk size once every length is known. */
  const chunks: number[][] = [];
  let cells = 0;
  for (let r = 1; r < parsed.data.length; r++) {
    const record = parsed.data[r];
    if (record.every((cell) => cell.trim() === "")) continue; // an empty line (the file's last)
    const line = `line ${r + 1}`;
    if (record.length !== header.length)
      return fail(
        line,
        `has ${record.length} cells, the header has ${header.length} (not a Scanlab export as written)`,
      );
    const cell = (c: number) => record[c].trim();
    const index = (c: number) => (INDEX.test(cell(c)) ? Number(cell(c)) : null);
    const [b, t, chunk] = [index(0), index(1), index(2)];
    if (b === null) return fail(line, `row ${JSON.stringify(cell(0))} is not a row number (0, 1, 2, …)`);
    if (t === null) return fail(line, `token ${JSON.stringify(cell(1))} is not a token number (0, 1, 2, …)`);
    if (chunk === null) return fail(line, `chunk ${JSON.stringify(cell(2))} is not a chunk number (0, 1, 2, …)`);
    const last = rows.length - 1;
    if (b === last + 1) {
      if (t !== 0) return fail(line, `row ${b} starts at token ${t}; a row's tokens start at 0`);
      if (rows.length >= MAX_ROWS) return fail(line, `more than ${MAX_ROWS} rows (the limit)`);
      rows.push({ length: 0, lossMask: [], ...Object.fromEntries(inputs.lanes.map((lane) => [lane, []])) });
      chunks.push([]);
    } else if (b !== last) {
      const expected = last < 0 ? "row 0" : `row ${last} or ${last + 1}`;
      return fail(line, `row ${b} where ${expected} was expected (the export lists rows in order)`);
    } else if (t !== rows[last].length) {
      return fail(line, `token ${t} of row ${b} where token ${rows[last].length} was expected`);
    }
    const row = rows[b];
    if (row.length >= MAX_TOKENS) return fail(line, `row ${b} is longer than the limit of ${MAX_TOKENS} tokens`);
    const mask = cell(3);
    if (mask !== "0" && mask !== "1") return fail(line, `loss_mask is 0 or 1, got ${JSON.stringify(mask)}`);
    row.lossMask?.push(mask === "1" ? 1 : 0);
    for (const [i, lane] of inputs.lanes.entries()) {
      const value = numberAt(cell(4 + i));
      if (typeof value === "string") return fail(`${line}, column ${5 + i} (${header[4 + i]})`, value);
      (row[lane] as number[]).push(value);
    }
    if (inputs.outcome !== null) {
      const value = numberAt(cell(inputs.outcome));
      if (typeof value === "string") return fail(`${line}, column ${inputs.outcome + 1} (outcome)`, value);
      if (t === 0) row.outcome = value;
      else if (!Object.is(value, row.outcome))
        return fail(
          line,
          `outcome ${cell(inputs.outcome)} differs from row ${b}'s ${row.outcome} (one outcome per row)`,
        );
    }
    chunks[b].push(chunk);
    row.length++;
    cells = Math.max(cells, row.length);
  }
  if (rows.length === 0) return fail("", "is a Scanlab export header with no tokens under it");
  if (rows.length * cells > MAX_CELLS)
    return fail("", `${rows.length} rows padded to ${cells} tokens is above the limit of ${MAX_CELLS} cells`);
  if (estimator !== "reinforce_pp") for (const row of rows) delete row.outcome;
  return success({ estimator, rows, chunkSize: chunkSizeOf(chunks, cells) });
}

type InputLane = "rewards" | "values" | "kl";
interface InputLayout {
  lanes: InputLane[];
  /** The column of the outcome reward (REINFORCE++), or null. */
  outcome: number | null;
}

/** The estimator and input columns a header says, or why it is no export Scanlab wrote. */
function headerLayout(header: string[]): { estimator: Estimator; inputs: InputLayout } | string {
  const fields = (layout: (typeof LAYOUTS)[number]) =>
    header.slice(LEADING.length, LEADING.length + layout.inputs.length);
  const layout = LAYOUTS.find((l) => fields(l).join() === l.inputs.join());
  const inputsText = LAYOUTS.map((l) => l.inputs.join(", ")).join("; ");
  if (!layout) return `after row, token, chunk, loss_mask an export has the inputs (${inputsText})`;
  const outputs = header.slice(LEADING.length + layout.inputs.length);
  const wanted = layout.outputs.flatMap((name) => OUTPUT_SUFFIXES.map((suffix) => `${name}_${suffix}`));
  const with32 = layout.outputs.flatMap((name) =>
    [...OUTPUT_SUFFIXES, ...SERIAL32_SUFFIXES].map((suffix) => `${name}_${suffix}`),
  );
  if (outputs.join() !== wanted.join() && outputs.join() !== with32.join()) {
    return `the columns after ${layout.inputs.join(", ")} are not the ${layout.outputs.join(" and ")} results of a ${layout.estimator} export`;
  }
  const lanes: InputLane[] =
    layout.estimator === "reinforce_pp" ? ["kl"] : layout.estimator === "gae" ? ["rewards", "values"] : ["rewards"];
  return {
    estimator: layout.estimator,
    inputs: { lanes, outcome: layout.estimator === "reinforce_pp" ? LEADING.length + 1 : null },
  };
}

/** An input value as the export writes it (float32 text, nan, inf, -inf), rounded to float32; or why not. */
function numberAt(cell: string): number | string {
  if (NON_FINITE.test(cell)) {
    if (/nan/i.test(cell)) return Number.NaN;
    return cell.startsWith("-") ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (!NUMBER.test(cell)) return `${JSON.stringify(cell.length > 30 ? `${cell.slice(0, 30)}…` : cell)} is not a number`;
  const value = Math.fround(Number(cell));
  if (Math.abs(value) > FLOAT32_MAX) return `${cell} is outside the float32 range (±3.4e38)`;
  return value;
}

/**
 * The chunk size C that numbers token t of a padded width `cols` as chunk ⌊(cols − 1 − t) / C⌋
 * (slime's reversed order: chunk 0 holds the last C tokens), where every line agrees with one; null
 * where the column allows many (all in chunk 0: C ≥ cols) or none.
 */
function chunkSizeOf(chunks: number[][], cols: number): number | null {
  const longest = chunks.find((row) => row.length === cols) ?? [];
  const size = longest.filter((chunk) => chunk === 0).length;
  if (size === 0 || size >= cols) return null;
  const fits = chunks.every((row) => row.every((chunk, t) => chunk === Math.floor((cols - 1 - t) / size)));
  return fits ? size : null;
}
