import {
  describeNonFinite,
  findNonFinite,
  type NonFiniteCell,
  nonFiniteSpread,
  spreadLesson,
} from "../../io/nonFinite";
import { laneOf } from "../../io/playgroundProblem";
import type { PlaygroundRow, PlaygroundState } from "../../io/playgroundState";

type Estimator = PlaygroundState["estimator"];

/** The lanes each estimator reads: a NaN in a lane it ignores changes nothing and is not reported. */
const LANES_READ: Record<Estimator, ("rewards" | "values" | "kl")[]> = {
  discounted: ["rewards"],
  gae: ["rewards", "values"],
  reinforce_pp: ["kl"],
};

/** Cells named in a note, at most: a lane that is all NaN is reported as its first few and a count. */
const MAX_CELLS = 1000;

/**
 * The non-finite cells of one row's lane (as row 0), found once per array: a stroke replaces only
 * the edited row's arrays, so the note after it scans one row again, not the whole batch.
 */
const cellsOfLane = new WeakMap<number[], NonFiniteCell[]>();
function nonFiniteCells(values: number[]): NonFiniteCell[] {
  let cells = cellsOfLane.get(values);
  if (!cells) {
    cells = findNonFinite([values], MAX_CELLS);
    cellsOfLane.set(values, cells);
  }
  return cells;
}

/**
 * The note over the editor when inputs hold NaN or ±Inf, naming row and token per lane, or null.
 * The run still happens: the page shows what each scan makes of them.
 */
export function nonFiniteInputNote(rows: PlaygroundRow[], estimator: Estimator): string | null {
  const parts: string[] = [];
  for (const lane of LANES_READ[estimator]) {
    const cells = rows
      .flatMap((row, b) => nonFiniteCells(row[lane] ?? []).map((cell) => ({ ...cell, row: b })))
      .slice(0, MAX_CELLS);
    if (cells.length > 0) parts.push(describeNonFinite(cells, lane));
  }
  if (estimator === "reinforce_pp") {
    const outcomes = rows.flatMap((row, b) => (Number.isFinite(row.outcome ?? 0) ? [] : [`row ${b}: ${row.outcome}`]));
    if (outcomes.length > 0) parts.push(`outcome reward: ${outcomes.join("; ")}`);
  }
  if (parts.length === 0) return null;
  return `Non-finite inputs, run anyway (see how each scan spreads them under the heatmap): ${parts.join(" · ")}`;
}

/**
 * Tokens of a row whose scanned input is non-finite: the rewards (discounted); the TD residual
 * δ_t = r_t + γ·V_{t+1} − V_t, so a bad V_{t+1} reaches token t too (GAE); the token reward
 * −kl_coef·kl_t·mask_t, plus the outcome at the last unmasked token (REINFORCE++).
 */
export function scannedNonFiniteTokens(row: PlaygroundRow, estimator: Estimator): number[] {
  const bad = (values: number[], t: number) => t < values.length && !Number.isFinite(values[t]);
  const tokens: number[] = [];
  if (estimator === "discounted") {
    const r = laneOf(row, "rewards");
    for (let t = 0; t < row.length; t++) if (bad(r, t)) tokens.push(t);
  } else if (estimator === "gae") {
    const r = laneOf(row, "rewards");
    const v = laneOf(row, "values");
    for (let t = 0; t < row.length; t++) if (bad(r, t) || bad(v, t) || bad(v, t + 1)) tokens.push(t);
  } else {
    const kl = laneOf(row, "kl");
    for (let t = 0; t < row.length; t++) if (bad(kl, t)) tokens.push(t);
    if (!Number.isFinite(row.outcome ?? 0)) {
      const mask = laneOf(row, "lossMask");
      const last = mask.lastIndexOf(1);
      if (last >= 0 && !tokens.includes(last)) tokens.push(last);
    }
  }
  return tokens;
}

/** scannedNonFiniteTokens, found once per row and estimator: each new result asks again for every row. */
const scannedOfRow = new WeakMap<PlaygroundRow, Partial<Record<Estimator, number[]>>>();
function scannedTokensOf(row: PlaygroundRow, estimator: Estimator): number[] {
  const known = scannedOfRow.get(row) ?? {};
  scannedOfRow.set(row, known);
  known[estimator] ??= scannedNonFiniteTokens(row, estimator);
  return known[estimator];
}

/**
 * The lesson under the heatmap for one row of a finished run (the selected row when it has
 * non-finite inputs, else the first that has): how far the chunked scan and the serial loop
 * spread them, at the padded length the batch was scanned at. Null when no row has any.
 */
export function nonFiniteLesson(
  rows: PlaygroundRow[],
  estimator: Estimator,
  cols: number,
  chunkSize: number | null,
  selectedRow: number,
): string | null {
  const order = [selectedRow, ...rows.keys()].filter((b) => b >= 0 && b < rows.length);
  for (const b of order) {
    const tokens = scannedTokensOf(rows[b], estimator);
    if (tokens.length === 0) continue;
    // No chunks (the per-token strategy): the chunked side spreads it as the serial loop does.
    const spread = nonFiniteSpread(cols, chunkSize ?? 1, tokens);
    const lesson =
      chunkSize === null
        ? spreadLesson({ ...spread, chunkedLast: spread.serialLast }, 1)
        : spreadLesson(spread, chunkSize);
    return `Row ${b}: ${lesson}`;
  }
  return null;
}
