import { useState } from "react";
import { LANE_LABELS } from "../../../compute/playground/lanes";
import type { Lane } from "../../../io/playgroundProblem";
import { FLOAT32_MAX } from "../../../io/playgroundState";

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

const NON_FINITE = /^([+-]?)(nan|inf|infinity)$/i;

/**
 * A typed lane value: a float32 number (stored rounded to float32, as the scan reads it), or NaN,
 * inf, -inf as numpy prints them: the page reports them and runs them to show how they spread.
 */
export function parseLaneValue(
  text: string,
  where: string,
): { ok: true; value: number } | { ok: false; reason: string } {
  const trimmed = text.trim();
  const special = NON_FINITE.exec(trimmed);
  if (special) {
    if (special[2].toLowerCase() === "nan") return { ok: true, value: Number.NaN };
    return { ok: true, value: special[1] === "-" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY };
  }
  const value = Number(trimmed);
  if (trimmed === "" || !Number.isFinite(value)) {
    return { ok: false, reason: `${where}: "${trimmed}" is not a number (NaN, inf and -inf are accepted)` };
  }
  if (Math.abs(value) > FLOAT32_MAX) {
    return { ok: false, reason: `${where}: ${trimmed} is beyond float32's range (±${FLOAT32_MAX.toPrecision(8)})` };
  }
  return { ok: true, value: Math.fround(value) };
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
