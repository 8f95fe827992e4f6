import { openCase } from "../../io/caseImport";
import { materializeRows, resizeRow } from "../../io/playgroundProblem";
import { type PlaygroundRow, type PlaygroundState, parsePlaygroundState } from "../../io/playgroundState";
import { BASE_SETTINGS } from "../../io/presets";
import { playerSizeProblem, stateSize } from "./playerLimits";
import { PLAYER_EXAMPLES, type PlayerSource } from "./source";
import type { TourTarget } from "./tour";
import type { PlayerTrace } from "./trace";

/**
 * Edits made inside the player (γ, λ, chunk size, length, a row's rewards) as plain functions:
 * each takes the shown source to a playground state, changes it, and checks the result against
 * the playground's schema and the player's own size limits, so a refusal names the field and the
 * reason and the last good source stays on screen.
 */

/** The player's own controls (PlayerControls.tsx names them); a tour's try names one, or the rewards. */
export type FieldId = "gamma" | "lambd" | "chunkSize" | "length";

export type EditResult = { ok: true; source: PlayerSource } | { ok: false; reason: string };

/** The state an edit starts from: the source's own, or a case of a file opened as the playground opens it. */
export function editableState(
  source: PlayerSource,
): { ok: true; state: PlaygroundState } | { ok: false; reason: string } {
  if (source.kind === "state") return { ok: true, state: source.state };
  const opened = openCase(
    { file: source.file, cases: [] },
    source.index,
    { ...BASE_SETTINGS, data: { source: "inline", rows: [] } },
    source.fileName,
  );
  if (!opened.ok) return { ok: false, reason: opened.error.message };
  return { ok: true, state: opened.value.state };
}

/** Which built-in example a source is, or was edited from (the tour keeps an edited tour example). */
export function sourceOrigin(source: PlayerSource): string | undefined {
  if (source.kind !== "state") return undefined;
  return source.origin ?? PLAYER_EXAMPLES.find((e) => e.label === source.label)?.id;
}

/** "Edited · 1 row × 14 tokens, C = 2, γ = 0.5": what the source bar says about an edited batch. */
export function editedLabel(state: PlaygroundState): string {
  const { rows, tokens, chunkSize } = stateSize(state);
  const discount = state.estimator === "gae" ? `γ = ${state.gamma}, λ = ${state.lambd}` : `γ = ${state.gamma}`;
  return `Edited · ${rows} row${rows === 1 ? "" : "s"} × ${tokens} tokens, C = ${chunkSize}, ${discount}`;
}

/**
 * The source after `change`: refused, with the field and the reason, when the schema or the
 * player's limits refuse the new state (`field` names the control in the message).
 */
export function editSource(
  source: PlayerSource,
  field: string,
  change: (state: PlaygroundState) => PlaygroundState,
): EditResult {
  const base = editableState(source);
  if (!base.ok) return { ok: false, reason: `${field}: this case cannot be edited (${base.reason})` };
  const checked = parsePlaygroundState(change(base.state));
  if (!checked.ok) return { ok: false, reason: `${field}: ${checked.error.message}` };
  const tooLarge = playerSizeProblem(stateSize(checked.state), "The edited batch");
  if (tooLarge) return { ok: false, reason: `${field}: ${tooLarge}` };
  const origin = sourceOrigin(source);
  return {
    ok: true,
    source: {
      kind: "state",
      state: checked.state,
      label: editedLabel(checked.state),
      ...(origin ? { origin } : {}),
      ...(source.kind === "state" && source.focus ? { focus: source.focus } : {}),
    },
  };
}

/**
 * Every row as long as the longest was becomes `length` tokens (cut, or extended with zero
 * rewards); a shorter row of a ragged batch keeps its length unless it is now too long.
 */
export function withLength(state: PlaygroundState, length: number): PlaygroundState {
  const rows = materializeRows(state);
  const longest = rows.reduce((max, row) => Math.max(max, row.length), 0);
  const resized = rows.map((row) => (row.length === longest || row.length > length ? resizeRow(row, length) : row));
  return { ...state, data: { source: "inline", rows: resized } };
}

/** Row b replaced (drawn or typed in the player's editor); a preset becomes its concrete rows first. */
export function withRow(state: PlaygroundState, b: number, row: PlaygroundRow): PlaygroundState {
  const rows = materializeRows(state).map((r, i) => (i === b ? row : r));
  return { ...state, data: { source: "inline", rows } };
}

/** Where the cursor is, as a place a new trace can find again: phase, step kind, chunk and position. */
export function cursorPlace(trace: PlayerTrace, cursor: number): TourTarget {
  const step = trace.steps[Math.max(0, Math.min(trace.steps.length - 1, cursor))];
  return {
    phase: step.phase,
    kind: step.kind,
    ...(step.chunk >= 0 ? { chunk: step.chunk } : {}),
    ...(step.k >= 0 ? { k: step.k } : {}),
  };
}
