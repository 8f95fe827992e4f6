import { useState } from "react";
import { LANE_LABELS, parseLaneValue } from "../../../compute/playground/lanes";
import type { Lane } from "../../../io/playgroundProblem";

export interface ExactValueFormProps {
  rowIndex: number;
  length: number;
  token: number;
  lane: Lane;
  value: number | undefined;
  mask: number | undefined;
  editing: boolean;
  format(value: number): string;
  onSubmit(value: number): void;
  onCancel(): void;
  onInvalid(reason: string | null): void;
}

/** The readout of the token under the cursor, which turns into a small form to type an exact value. */
export function ExactValueForm(props: ExactValueFormProps) {
  const { rowIndex, length, token, lane, value, mask, editing, format } = props;
  const [text, setText] = useState(value === undefined ? "" : format(value));
  const [invalid, setInvalid] = useState<string | null>(null);
  const where = `row ${rowIndex}, token ${token}, ${LANE_LABELS[lane]}`;
  if (length === 0) {
    return (
      <p className="editor-readout" data-testid="cursor-readout">
        Row {rowIndex} is empty: give it a length in the rows list.
      </p>
    );
  }
  if (!editing) {
    return (
      <p className="editor-readout num" data-testid="cursor-readout" aria-live="polite">
        row {rowIndex} · token {token} of {length} · {LANE_LABELS[lane]}{" "}
        <strong data-testid="cursor-value">{value === undefined ? "–" : format(value)}</strong>
        {lane !== "lossMask" ? <span className="muted"> · mask {mask}</span> : null}
      </p>
    );
  }
  return (
    <form
      className="editor-readout exact-form num"
      onSubmit={(event) => {
        event.preventDefault();
        const parsed = parseLaneValue(text, where);
        if (!parsed.ok) {
          setInvalid(parsed.reason);
          props.onInvalid(parsed.reason);
          return;
        }
        props.onInvalid(null);
        props.onSubmit(parsed.value);
      }}
    >
      <label htmlFor="pg-exact">
        row {rowIndex} · token {token} · {LANE_LABELS[lane]} =
      </label>
      <input
        id="pg-exact"
        // biome-ignore lint/a11y/noAutofocus: opened on purpose by a click or Enter on a bar.
        autoFocus
        className="num-entry num"
        data-testid="exact-value-input"
        value={text}
        aria-invalid={invalid !== null}
        onChange={(event) => setText(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === "Escape") {
            props.onInvalid(null);
            props.onCancel();
          }
        }}
      />
      <button type="submit">Set</button>
      <button
        type="button"
        onClick={() => {
          props.onInvalid(null);
          props.onCancel();
        }}
      >
        Cancel
      </button>
      {invalid ? <span className="field-error">{invalid}</span> : null}
    </form>
  );
}
