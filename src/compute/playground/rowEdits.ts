import { resizeRow } from "../../io/playgroundProblem";
import type { PlaygroundRow, PlaygroundState } from "../../io/playgroundState";

/**
 * Edits of the batch's rows as plain functions of (state, rows): each returns the next state with
 * inline rows (a seeded preset becomes its concrete rows on the first edit, so nothing drawn is
 * ever regenerated away).
 */
export function withRows(
  state: PlaygroundState,
  rows: PlaygroundRow[],
  selectedRow = state.selectedRow,
): PlaygroundState {
  return { ...state, data: { source: "inline", rows }, selectedRow };
}

export function replaceRow(
  state: PlaygroundState,
  rows: PlaygroundRow[],
  b: number,
  row: PlaygroundRow,
): PlaygroundState {
  return withRows(
    state,
    rows.map((r, i) => (i === b ? row : r)),
  );
}

/** A new row after row b, as long as it, all zeros (mask all ones), selected. */
export function addRow(state: PlaygroundState, rows: PlaygroundRow[], b: number): PlaygroundState {
  const length = rows[b]?.length ?? 1;
  const blank: PlaygroundRow = { length, rewards: new Array(length).fill(0) };
  if (state.estimator === "gae") blank.values = new Array(length).fill(0);
  if (state.estimator === "reinforce_pp") {
    blank.kl = new Array(length).fill(0);
    blank.outcome = 0;
  }
  const next = [...rows.slice(0, b + 1), blank, ...rows.slice(b + 1)];
  return withRows(state, next, b + 1);
}

/** Row b removed; the last row cannot go (a batch has at least one row): returns the reason instead. */
export function removeRow(state: PlaygroundState, rows: PlaygroundRow[], b: number): PlaygroundState | string {
  if (rows.length <= 1) return "A batch needs at least one row; this is the last one.";
  const next = rows.filter((_, i) => i !== b);
  return withRows(state, next, Math.min(b, next.length - 1));
}

export function setRowLength(
  state: PlaygroundState,
  rows: PlaygroundRow[],
  b: number,
  length: number,
): PlaygroundState {
  return replaceRow(state, rows, b, resizeRow(rows[b], length));
}

export function setOutcome(state: PlaygroundState, rows: PlaygroundRow[], b: number, outcome: number): PlaygroundState {
  return replaceRow(state, rows, b, { ...rows[b], outcome });
}
