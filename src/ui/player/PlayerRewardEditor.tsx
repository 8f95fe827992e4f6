import { useMemo, useRef, useState } from "react";
import { materializeRows } from "../../io/playgroundProblem";
import type { PlaygroundRow, PlaygroundState } from "../../io/playgroundState";
import { chunkStarts } from "../charts/chunkBoundaries";
import { PLOT_LEFT, PLOT_RIGHT } from "../charts/plotLayout";
import { RowEditor } from "../playground/editor/RowEditor";

export interface PlayerRewardEditorProps {
  state: PlaygroundState;
  /** The row the stage follows: the one drawn on. */
  focusRow: number;
  /**
   * Where the stage draws t = 0 (left edge) and t = T − 1 (right edge), in px from the stage's
   * box, when it draws every token in original time: the editor's token axis is then laid over
   * the stage's columns. Undefined (folds, reversed time): the editor takes the whole width.
   */
  axis?: { left: number; right: number };
  /** Applies the edited row: null when applied, else the reason (the last good source stays). */
  onEdit(row: PlaygroundRow, b: number): string | null;
}

/** The stage's svg sits 1 px (border) + 0.2rem (padding, 3.2 px) into its scroll box (player.css). */
const STAGE_INSET = 4.2;
/** .pc-editor's border. */
const BORDER = 1;

/** Padding and width that put the lanes' plot (PLOT_LEFT in, PLOT_RIGHT from the end) over [left, right]. */
function alignedBox({ left, right }: { left: number; right: number }) {
  return {
    boxSizing: "border-box" as const,
    paddingLeft: STAGE_INSET + left - PLOT_LEFT - BORDER,
    width: STAGE_INSET + right + PLOT_RIGHT - BORDER,
  };
}

/**
 * The playground's lane editor on the focus row, over the stage: drag to draw rewards (values,
 * KL, the loss mask for the other estimators), click or Enter to type an exact value. A stroke
 * is one edit, applied when it ends.
 */
export function PlayerRewardEditor({ state, focusRow, axis, onEdit }: PlayerRewardEditorProps) {
  // The row while a stroke lasts (drawn by the editor), committed as one edit when the stroke ends.
  const [draft, setDraft] = useState<PlaygroundRow>();
  const draftRef = useRef<PlaygroundRow | undefined>(undefined);
  const [hover, setHover] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const rows = useMemo(() => materializeRows(state), [state]);
  const cols = rows.reduce((max, r) => Math.max(max, r.length), 0);
  const boundaries = useMemo(() => chunkStarts(cols, state.chunkSize), [cols, state.chunkSize]);
  const b = Math.min(focusRow, rows.length - 1);
  if (!rows[b]) return null;
  const apply = (row: PlaygroundRow) => setError(onEdit(row, b));
  return (
    <div id="player-reward-editor" className="pc-editor" data-testid="player-reward-editor">
      {/* Clipped by its box: the lanes' right margin (PLOT_RIGHT, empty) may reach past the stage's edge. */}
      <div style={axis ? alignedBox(axis) : undefined}>
        <RowEditor
          row={draft ?? rows[b]}
          rowIndex={b}
          cols={cols}
          estimator={state.estimator}
          boundaries={boundaries}
          mode="draw"
          hover={hover}
          onHover={setHover}
          onDraft={(row) => {
            draftRef.current = row;
            setDraft(row);
          }}
          onCommitDraft={() => {
            const row = draftRef.current;
            draftRef.current = undefined;
            setDraft(undefined);
            if (row) apply(row);
          }}
          onEdit={apply}
          onInvalid={setError}
          onFirstUse={() => {}}
        />
      </div>
      {error ? (
        <p className="player-control-error" role="alert" data-testid="player-reward-error">
          Rewards: {error} (the player keeps the last good value)
        </p>
      ) : null}
    </div>
  );
}
