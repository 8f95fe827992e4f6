import type { FieldVerdict } from "../../core";
import { type SampleRow, type SampleVerdict, worstFirst } from "./runModel";

/**
 * Every sample's line of the table, as columns: the run worker's report sends these to the page
 * instead of one object per sample. Cloned as objects, 60,000 samples' rows (six objects each) held
 * the page's main thread for 680 ms of CPU in one task while the message was read, and the page then
 * sorted them worst first twice more (60 ms each). Here the numbers are one Float64Array, the
 * strings one small dictionary, and the worst-first order comes sorted from the worker; the page
 * makes a row's object only for the rows it draws (`rowReader`).
 */
export interface SampleTable {
  count: number;
  /** Sample indices in the table's order, worst first (worstFirst). */
  order: Int32Array;
  /** Each sample's place in `order`. */
  placeOf: Int32Array;
  /** The samples over their bounds, in the dump's order. */
  failing: Int32Array;
  /** `count × COLUMNS` numbers, a sample's in a run (its nulls as NaN beside a presence flag). */
  numbers: Float64Array;
  /** `count × TEXTS` indices into `texts` (−1: null): the status, then each field's cause. */
  textCodes: Int32Array;
  texts: string[];
}

const FIELDS = ["advantages", "returns", "kl"] as const;
/** A field verdict's numbers: present, passed, maxGap, scale, worstToken, worstGap, worstBound, failures, unbounded, wide. */
const FIELD_COLUMNS = 10;
/** rolloutPosition (NaN: null), length, reward, maskedShare, replayed, passed, worstFraction, worstField, worstToken, nonFinite, severity ×3. */
const ROW_COLUMNS = 13;
const COLUMNS = ROW_COLUMNS + FIELDS.length * FIELD_COLUMNS;
const TEXTS = 1 + FIELDS.length;

/** The table of these rows, in their order (the dump's). */
export function sampleTable(rows: readonly SampleRow[]): SampleTable {
  const count = rows.length;
  const numbers = new Float64Array(count * COLUMNS);
  const textCodes = new Int32Array(count * TEXTS).fill(-1);
  const texts: string[] = [];
  const codes = new Map<string, number>();
  const code = (text: string | null) => {
    if (text === null) return -1;
    let c = codes.get(text);
    if (c === undefined) {
      c = texts.length;
      texts.push(text);
      codes.set(text, c);
    }
    return c;
  };
  const failing: number[] = [];
  rows.forEach((row, i) => {
    if (row.index !== i) throw new Error(`sample row ${i} is sample ${row.index}: rows go in the dump's order`);
    const n = i * COLUMNS;
    const v = row.verdict;
    numbers[n] = row.rolloutPosition ?? Number.NaN;
    numbers[n + 1] = row.length;
    numbers[n + 2] = row.reward;
    numbers[n + 3] = row.maskedShare;
    textCodes[i * TEXTS] = code(row.status);
    if (!v) return;
    if (!v.passed) failing.push(i);
    numbers[n + 4] = 1;
    numbers[n + 5] = Number(v.passed);
    numbers[n + 6] = v.worstFraction;
    numbers[n + 7] = FIELDS.indexOf(v.worstField);
    numbers[n + 8] = v.worstToken;
    numbers[n + 9] = Number(v.nonFinite);
    numbers.set(v.severity, n + 10);
    FIELDS.forEach((name, f) => {
      const field = v[name];
      if (!field) return;
      const at = n + ROW_COLUMNS + f * FIELD_COLUMNS;
      numbers[at] = 1;
      numbers[at + 1] = Number(field.passed);
      numbers[at + 2] = field.maxGap;
      numbers[at + 3] = field.scale;
      numbers[at + 4] = field.worstToken;
      numbers[at + 5] = field.worstGap;
      numbers[at + 6] = field.worstBound;
      numbers[at + 7] = field.failures;
      numbers[at + 8] = field.unbounded;
      numbers[at + 9] = field.wide;
      textCodes[i * TEXTS + 1 + f] = code(field.cause);
    });
  });
  const order = Int32Array.from(worstFirst(rows), (row) => row.index);
  const placeOf = new Int32Array(count);
  order.forEach((sample, place) => {
    placeOf[sample] = place;
  });
  return { count, order, placeOf, failing: Int32Array.from(failing), numbers, textCodes, texts };
}

/** Sample i's row, as sampleRows made it. */
export function sampleRowAt(table: SampleTable, i: number): SampleRow | undefined {
  if (!(i >= 0 && i < table.count)) return undefined;
  const { numbers: x, textCodes, texts } = table;
  const n = i * COLUMNS;
  const text = (k: number) => {
    const c = textCodes[i * TEXTS + k];
    return c < 0 ? null : texts[c];
  };
  const field = (f: number): FieldVerdict | null => {
    const at = n + ROW_COLUMNS + f * FIELD_COLUMNS;
    if (x[at] !== 1) return null;
    return {
      passed: x[at + 1] === 1,
      maxGap: x[at + 2],
      scale: x[at + 3],
      worstToken: x[at + 4],
      worstGap: x[at + 5],
      worstBound: x[at + 6],
      failures: x[at + 7],
      unbounded: x[at + 8],
      wide: x[at + 9],
      cause: text(1 + f),
    };
  };
  const verdict: SampleVerdict | null =
    x[n + 4] === 1
      ? {
          passed: x[n + 5] === 1,
          advantages: field(0) as FieldVerdict,
          returns: field(1) as FieldVerdict,
          kl: field(2),
          worstFraction: x[n + 6],
          worstField: FIELDS[x[n + 7]],
          worstToken: x[n + 8],
          nonFinite: x[n + 9] === 1,
          severity: [x[n + 10], x[n + 11], x[n + 12]],
        }
      : null;
  return {
    index: i,
    rolloutPosition: Number.isNaN(x[n]) ? null : x[n],
    length: x[n + 1],
    reward: x[n + 2],
    maskedShare: x[n + 3],
    status: text(0),
    verdict,
  };
}

/** Rows read off a table, each made once and kept, so a memoised line keeps its row while the table lasts. */
export function rowReader(table: SampleTable): (i: number) => SampleRow | undefined {
  const made = new Map<number, SampleRow>();
  return (i) => {
    let row = made.get(i);
    if (!row) {
      row = sampleRowAt(table, i);
      if (row) made.set(i, row);
    }
    return row;
  };
}
