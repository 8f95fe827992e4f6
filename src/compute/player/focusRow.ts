import { materializeRows } from "../../io/playgroundProblem";
import type { PlaygroundState } from "../../io/playgroundState";
import { playerSizeProblem, stateSize } from "./playerLimits";
import type { PlayerSource } from "./source";

/** Which row of how many a one-row source is (the playground's row in focus). */
export interface FocusRow {
  row: number;
  rows: number;
}

/**
 * A playground batch too large to replay whole (16 × 8192 is 131,072 padded cells, twice what
 * the player replays) goes to the player as the row the playground had in focus: one row is
 * what the player follows anyway. A batch that fits, or of one row, is left as it is (the player
 * then says why a single row is still too long).
 */
export function rowInFocus(state: PlaygroundState): { state: PlaygroundState; focus?: FocusRow } {
  const size = stateSize(state);
  if (size.rows <= 1 || playerSizeProblem(size, "This batch") === null) return { state };
  const rows = materializeRows(state);
  const row = Math.max(0, Math.min(rows.length - 1, state.selectedRow));
  return {
    state: { ...state, selectedRow: 0, data: { source: "inline", rows: [rows[row]] } },
    focus: { row, rows: rows.length },
  };
}

/** A state source as the player replays it: the batch, or its row in focus when the batch is too large. */
export function focusRowSource(source: PlayerSource): PlayerSource {
  if (source.kind !== "state") return source;
  const { state, focus } = rowInFocus(source.state);
  return focus ? withFocus({ ...source, state }, focus) : source;
}

/** A one-row source named as row `row` of `rows` (the label and the note above the stage say so). */
export function withFocus(source: Extract<PlayerSource, { kind: "state" }>, focus: FocusRow): PlayerSource {
  return { ...source, label: `${source.label} · row ${focus.row} of ${focus.rows}`, focus };
}

/** `3-of-16`: the address's `focus`, beside a one-row `#s=` ("Open in player" on a large batch). */
export function focusParam({ row, rows }: FocusRow): string {
  return `${row}-of-${rows}`;
}

/** The address's `focus`, when it is one (`3-of-16`, row < rows); anything else is ignored. */
export function parseFocusParam(text: string | null): FocusRow | undefined {
  const match = /^(\d{1,7})-of-(\d{1,7})$/.exec(text ?? "");
  if (!match) return undefined;
  const [row, rows] = [Number(match[1]), Number(match[2])];
  return row < rows ? { row, rows } : undefined;
}

/** What the player says about a row replayed alone: "Row 3 of 16, as the playground had in focus: …". */
export function focusNote(focus: FocusRow): string {
  return `Row ${focus.row} of ${focus.rows}, as the playground had in focus: the whole batch is more than the player replays, so it replays this row alone (every number here is this row's).`;
}
