import { memo } from "react";
import { MAX_TOKENS, type PlaygroundRow, type PlaygroundState } from "../../../io/playgroundState";
import type { Parsed } from "../controls/controlMath";
import { helpId } from "../controls/Field";
import { NumberEntry } from "../controls/NumberEntry";
import { parseForState } from "../controls/validateEdit";
import type { EditMode } from "./RowEditor";
import { addRow, removeRow, setOutcome, setRowLength } from "./rowEdits";

export interface EditorToolbarProps {
  state: PlaygroundState;
  rows: PlaygroundRow[];
  mode: EditMode;
  onMode(mode: EditMode): void;
  edit(change: (state: PlaygroundState) => PlaygroundState): void;
  onSelectRow(row: number): void;
  onError(reason: string | null): void;
  fieldErrors: Record<string, string>;
  onFieldError(id: string, reason: string | null): void;
  canUndo: boolean;
  canRedo: boolean;
  onUndo(): void;
  onRedo(): void;
}

/** Row choice, its length and outcome, add and remove, the draw/mask mode, undo and redo. */
export const EditorToolbar = memo(function EditorToolbar(props: EditorToolbarProps) {
  const { state, rows, mode } = props;
  const b = Math.min(state.selectedRow, rows.length - 1);
  const row = rows[b];
  const parseLength = (text: string): Parsed => {
    const length = Number(text.trim());
    if (text.trim() === "" || !Number.isInteger(length) || length < 0 || length > MAX_TOKENS) {
      return {
        ok: false,
        reason: `row ${b} length: expected a whole number from 0 to ${MAX_TOKENS}, got "${text.trim()}"`,
      };
    }
    return parseForState(`row ${b} length`, text, (n) => setRowLength(state, rows, b, n));
  };
  const parseOutcome = (text: string) =>
    parseForState(`row ${b} outcome`, text, (outcome) => setOutcome(state, rows, b, outcome));
  return (
    <div className="editor-toolbar" role="toolbar" aria-label="Row editing">
      <div className="group">
        <button type="button" aria-label="Previous row" disabled={b <= 0} onClick={() => props.onSelectRow(b - 1)}>
          ◀
        </button>
        <label className="num" htmlFor="pg-row-select">
          row
        </label>
        <select
          id="pg-row-select"
          className="num"
          value={b}
          data-testid="row-select"
          onChange={(event) => props.onSelectRow(Number(event.currentTarget.value))}
        >
          {rows.map((r, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows are identified by their index.
            <option key={i} value={i}>
              {i} ({r.length} tok)
            </option>
          ))}
        </select>
        <span className="muted num">of {rows.length}</span>
        <button
          type="button"
          aria-label="Next row"
          disabled={b >= rows.length - 1}
          onClick={() => props.onSelectRow(b + 1)}
        >
          ▶
        </button>
      </div>
      <div className={`group${props.fieldErrors.rowLength ? " invalid" : ""}`}>
        <label htmlFor="pg-row-length" title="Tokens in this row; the batch is right-padded to the longest row">
          length
        </label>
        <NumberEntry
          id="pg-row-length"
          value={row.length}
          parse={parseLength}
          onCommit={(length) => props.edit((s) => setRowLength(s, rows, b, length))}
          onInvalid={(reason) => props.onFieldError("rowLength", reason)}
          width="7ch"
          testId="row-length-input"
        />
        {state.estimator === "reinforce_pp" ? (
          <>
            <label htmlFor="pg-outcome" title="The row's outcome reward, added at its last unmasked token">
              outcome
            </label>
            <NumberEntry
              id="pg-outcome"
              value={row.outcome ?? 0}
              parse={parseOutcome}
              onCommit={(outcome) => props.edit((s) => setOutcome(s, rows, b, outcome))}
              onInvalid={(reason) => props.onFieldError("outcome", reason)}
              width="7ch"
              testId="outcome-input"
            />
          </>
        ) : null}
      </div>
      <div className="group">
        <button
          type="button"
          onClick={() => props.edit((s) => addRow(s, rows, b))}
          title="Add a zero row after this one"
        >
          + row
        </button>
        <button
          type="button"
          disabled={rows.length <= 1}
          title="Remove this row (undo brings it back)"
          onClick={() => {
            const next = removeRow(state, rows, b);
            if (typeof next === "string") props.onError(next);
            else props.edit(() => next);
          }}
        >
          − row
        </button>
      </div>
      <fieldset className="segmented compact" aria-describedby={helpId("pg-mode")}>
        <legend className="sr-only">Pointer mode</legend>
        {(["draw", "mask"] as const).map((m) => (
          <label key={m} className={m === mode ? "on" : ""}>
            <input type="radio" name="pg-mode" checked={m === mode} onChange={() => props.onMode(m)} />
            {m === "draw" ? "draw values" : "paint mask"}
          </label>
        ))}
        <span id={helpId("pg-mode")} className="sr-only">
          Draw values: drag across the bars to set them. Paint mask: drag to cut holes in the loss mask (or fill them).
        </span>
      </fieldset>
      <div className="group">
        <button
          type="button"
          disabled={!props.canUndo}
          onClick={props.onUndo}
          title="Undo (Ctrl+Z)"
          aria-label="Undo"
          data-testid="undo"
        >
          ↶
        </button>
        <button
          type="button"
          disabled={!props.canRedo}
          onClick={props.onRedo}
          title="Redo (Ctrl+Shift+Z)"
          aria-label="Redo"
          data-testid="redo"
        >
          ↷
        </button>
      </div>
    </div>
  );
});
