import { memo } from "react";
import { addRow, removeRow, setOutcome, setRowLength } from "../../../compute/playground/rowEdits";
import { MAX_TOKENS, type PlaygroundRow, type PlaygroundState } from "../../../io/playgroundState";
import { OptionSelect } from "../../OptionSelect";
import { ToolbarButton } from "../../ToolbarButton";
import type { Parsed } from "../controls/controlMath";
import { helpId } from "../controls/Field";
import { NumberEntry } from "../controls/NumberEntry";
import { parseForState } from "../controls/validateEdit";
import { WithHelp } from "../controls/WithHelp";
import type { EditMode } from "./RowEditor";

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
  /** What the pointer does, until the user has acted (beside the tools, never over the bars). */
  hint?: string | null;
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
      <WithHelp id="pg-row-help" help="The row shown in the editor and the charts; a heatmap row click chooses it too.">
        <ToolbarButton
          label="Previous row"
          aria-describedby="pg-row-help"
          disabled={b <= 0}
          onClick={() => props.onSelectRow(b - 1)}
        >
          ◀
        </ToolbarButton>
        <label className="num" htmlFor="pg-row-select">
          row
        </label>
        <OptionSelect
          id="pg-row-select"
          className="num"
          options={rows.map((_, i) => i)}
          value={b}
          optionLabel={(i) => `${i} (${rows[i].length} tok)`}
          aria-describedby="pg-row-help"
          testId="row-select"
          onChoose={props.onSelectRow}
        />
        <span className="muted num">of {rows.length}</span>
        <ToolbarButton
          label="Next row"
          aria-describedby="pg-row-help"
          disabled={b >= rows.length - 1}
          onClick={() => props.onSelectRow(b + 1)}
        >
          ▶
        </ToolbarButton>
      </WithHelp>
      <WithHelp
        id="pg-length-help"
        help="Tokens in this row (ragged batches): the batch is right-padded to its longest row for one scan."
        className={props.fieldErrors.rowLength ? "invalid" : ""}
      >
        <label htmlFor="pg-row-length">length</label>
        <NumberEntry
          id="pg-row-length"
          value={row.length}
          parse={parseLength}
          onCommit={(length) => props.edit((s) => setRowLength(s, rows, b, length))}
          onInvalid={(reason) => props.onFieldError("rowLength", reason)}
          describedBy="pg-length-help"
          width="7ch"
          testId="row-length-input"
        />
      </WithHelp>
      {state.estimator === "reinforce_pp" ? (
        <WithHelp
          id="pg-outcome-help"
          help="The row's outcome reward (a verifier's score), added at its last unmasked token."
          className={props.fieldErrors.outcome ? "invalid" : ""}
        >
          <label htmlFor="pg-outcome">outcome</label>
          <NumberEntry
            id="pg-outcome"
            value={row.outcome ?? 0}
            parse={parseOutcome}
            onCommit={(outcome) => props.edit((s) => setOutcome(s, rows, b, outcome))}
            onInvalid={(reason) => props.onFieldError("outcome", reason)}
            describedBy="pg-outcome-help"
            width="7ch"
            testId="outcome-input"
          />
        </WithHelp>
      ) : null}
      <WithHelp id="pg-rows-help" help="Add a row of zeros after this one, or remove this row (undo brings it back).">
        <button type="button" aria-describedby="pg-rows-help" onClick={() => props.edit((s) => addRow(s, rows, b))}>
          + row
        </button>
        <button
          type="button"
          aria-describedby="pg-rows-help"
          disabled={rows.length <= 1}
          onClick={() => {
            const next = removeRow(state, rows, b);
            if (typeof next === "string") props.onError(next);
            else props.edit(() => next);
          }}
        >
          − row
        </button>
      </WithHelp>
      <WithHelp
        id={helpId("pg-mode")}
        help="Draw values: drag across the bars to set them. Paint mask: drag to cut holes in the loss mask (or fill them)."
      >
        <fieldset className="segmented compact" aria-describedby={helpId("pg-mode")}>
          <legend className="sr-only">Pointer mode</legend>
          {(["draw", "mask"] as const).map((m) => (
            <label key={m} className={m === mode ? "on" : ""}>
              <input
                type="radio"
                name="pg-mode"
                checked={m === mode}
                aria-describedby={helpId("pg-mode")}
                onChange={() => props.onMode(m)}
              />
              {m === "draw" ? "draw values" : "paint mask"}
            </label>
          ))}
        </fieldset>
      </WithHelp>
      <WithHelp
        id="pg-undo-help"
        help="Undo or redo a whole edit: a stroke, a typed value, a setting (Ctrl+Z, Ctrl+Shift+Z)."
      >
        <ToolbarButton
          label="Undo"
          disabled={!props.canUndo}
          onClick={props.onUndo}
          aria-describedby="pg-undo-help"
          testId="undo"
        >
          ↶
        </ToolbarButton>
        <ToolbarButton
          label="Redo"
          disabled={!props.canRedo}
          onClick={props.onRedo}
          aria-describedby="pg-undo-help"
          testId="redo"
        >
          ↷
        </ToolbarButton>
      </WithHelp>
      {props.hint ? (
        <span className="draw-hint" data-testid="draw-hint">
          {props.hint}
        </span>
      ) : null}
    </div>
  );
});
