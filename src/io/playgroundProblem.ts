import { arrayOf, type Batch, type FloatArray, type Precision, type ScanProblem } from "../core";
import type { PlaygroundData, PlaygroundRow, PlaygroundState } from "./playgroundState";
import { generateRows } from "./rowGenerators";

export type Lane = "rewards" | "values" | "kl" | "lossMask";

/** The concrete rows of a state: a preset drawn from its seed (deterministic), inline rows as they are. */
export function materializeRows(data: PlaygroundData | PlaygroundState): PlaygroundRow[] {
  const d = "source" in data ? data : data.data;
  if (d.source === "inline") return d.rows;
  return generateRows(d.preset, d.seed, d.rows, d.tokens, d.ragged);
}

/** A lane of a row as numbers: an absent lane reads as zeros, an absent mask as all ones. */
export function laneOf(row: PlaygroundRow, lane: Lane): number[] {
  const values = row[lane];
  if (values) return values;
  return new Array<number>(row.length).fill(lane === "lossMask" ? 1 : 0);
}

/**
 * The row at another length: cut, or extended with zeros (mask 1), in every lane present. The
 * editor keeps the old row in its undo history, so a cut is never a loss.
 */
export function resizeRow(row: PlaygroundRow, length: number): PlaygroundRow {
  const out: PlaygroundRow = { length };
  if (row.outcome !== undefined) out.outcome = row.outcome;
  for (const lane of ["rewards", "values", "kl", "lossMask"] as const) {
    const values = row[lane];
    if (!values) continue;
    const resized = values.slice(0, length) as number[];
    while (resized.length < length) resized.push(lane === "lossMask" ? 1 : 0);
    (out as Record<Lane, number[]>)[lane] = resized;
  }
  return out;
}

/** Rows right-padded with zeros into `[B, max length]`, as slime pads a batch before one scan. */
export function paddedLane(rows: PlaygroundRow[], lane: "rewards" | "values", precision: Precision): Batch {
  const cols = rows.reduce((max, row) => Math.max(max, row.length), 0);
  const data = arrayOf(precision, rows.length * cols);
  rows.forEach((row, b) => {
    setPaddedRow(data, row, lane, b, cols);
  });
  return { rows: rows.length, cols, data };
}

/**
 * Row b's lane, rounded to float32, into a zeroed `[B, cols]` table: one row of paddedLane, so
 * that a large batch can be built a few rows per task with the same numbers.
 */
export function setPaddedRow(
  data: FloatArray,
  row: PlaygroundRow,
  lane: "rewards" | "values",
  b: number,
  cols: number,
): void {
  const values = row[lane];
  if (values) data.set(values.map(Math.fround), b * cols);
}

/** A row's KL lane rounded to float32, in the precision of the arrays (one row of a REINFORCE++ batch). */
export function klRow(row: PlaygroundRow, precision: Precision): FloatArray {
  return arrayOf(precision, laneOf(row, "kl").map(Math.fround));
}

/**
 * The state as core's problem, in the precision of its arrays. Inputs are rounded to float32
 * first (the golden schema's rule), so float64 and float32 runs see identical inputs; γ, λ and
 * kl_coef stay exact (the float32 scan rounds them itself, as slime does).
 * Discounted and GAE: the ragged rows right-padded to `[B, max length]` (chunk boundaries follow the
 * padded length). REINFORCE++: the ragged batch as it is (core pads it, as slime does).
 */
export function stateToProblem(
  state: PlaygroundState,
  precision: Precision,
  rows = materializeRows(state),
): ScanProblem {
  // NaN and ±Inf typed or imported are run, not refused: the page reports them and shows how each
  // scan spreads them (ALGORITHM.md §b.4).
  return { ...strictProblem(state, precision, rows), allowNonFinite: true };
}

function strictProblem(state: PlaygroundState, precision: Precision, rows: PlaygroundRow[]): ScanProblem {
  const { gamma, lambd, chunkSize, klCoef } = state;
  switch (state.estimator) {
    case "discounted":
      return { kind: "discounted", rewards: paddedLane(rows, "rewards", precision), discount: gamma, chunkSize };
    case "gae":
      return {
        kind: "gae",
        rewards: paddedLane(rows, "rewards", precision),
        values: paddedLane(rows, "values", precision),
        gamma,
        lambd,
        chunkSize,
      };
    case "reinforce_pp": {
      const batch = {
        rewards: rows.map((row) => Math.fround(row.outcome ?? 0)),
        kl: rows.map((row) => klRow(row, precision)),
        lossMasks: rows.map((row) => laneOf(row, "lossMask")),
      };
      return { kind: "reinforce_pp", batch, klCoef, gamma, chunkSize };
    }
  }
}

export interface PaddingStats {
  rows: number;
  /** The padded length every row is scanned at. */
  maxLength: number;
  realTokens: number;
  /** B · max length: the cells the batched scan computes. */
  paddedCells: number;
  /** Share of the scanned cells that are padding, 0 … 1 (0 for an empty batch). */
  paddingShare: number;
}

/** How much of the padded `[B, max length]` scan is padding: the cost of scanning a ragged batch at once. */
export function paddingStats(rows: PlaygroundRow[]): PaddingStats {
  const maxLength = rows.reduce((max, row) => Math.max(max, row.length), 0);
  const realTokens = rows.reduce((sum, row) => sum + row.length, 0);
  const paddedCells = rows.length * maxLength;
  const paddingShare = paddedCells === 0 ? 0 : (paddedCells - realTokens) / paddedCells;
  return { rows: rows.length, maxLength, realTokens, paddedCells, paddingShare };
}
