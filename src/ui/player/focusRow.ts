import { materializeRows } from "../../io/playgroundProblem";
import type { PlaygroundState } from "../../io/playgroundState";
import { playerSizeProblem, stateSize } from "./playerLimits";
import type { PlayerSource } from "./source";

/**
 * A playground batch too large to replay whole (16 × 8192 is 131,072 padded cells, twice what
 * the player replays) opens as the row the playground had in focus: one row is what the player
 * follows anyway. A batch that fits, or of one row, is left as it is (the player then says why a
 * single row is still too long).
 */
export function focusRowSource(source: PlayerSource): PlayerSource {
  if (source.kind !== "state") return source;
  const { state } = source;
  const size = stateSize(state);
  if (size.rows <= 1 || playerSizeProblem(size, "This batch") === null) return source;
  const rows = materializeRows(state);
  const row = Math.max(0, Math.min(rows.length - 1, state.selectedRow));
  const one: PlaygroundState = { ...state, selectedRow: 0, data: { source: "inline", rows: [rows[row]] } };
  return {
    kind: "state",
    state: one,
    label: `${source.label} · row ${row} of ${rows.length}`,
    focus: { row, rows: rows.length },
  };
}

/** What the player says about a row replayed alone: "Row 3 of 16, as the playground had in focus: …". */
export function focusNote(focus: { row: number; rows: number }): string {
  return `Row ${focus.row} of ${focus.rows}, as the playground had in focus: the whole batch is more than the player replays, so it replays this row alone (every number here is this row's).`;
}
