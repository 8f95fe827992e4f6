import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import type { Parsed } from "./controlMath";
import "./numberEntry.css";

export interface NumberEntryProps {
  id: string;
  value: number;
  /** Checks the text; a refusal keeps the text (red, with its reason) and changes nothing. */
  parse(text: string): Parsed;
  onCommit(value: number): void;
  /** Told the reason when the text is refused, and null once it is fixed or replaced. */
  onInvalid(reason: string | null): void;
  describedBy?: string;
  label?: string;
  format?(value: number): string;
  width?: string;
  testId?: string;
}

/** After a pause in typing the value is applied (Enter applies at once, Escape restores). */
const TYPING_PAUSE_MS = 600;

/** A typed number: applied after a short pause or on Enter; never clamped, refused with the reason. */
export function NumberEntry(props: NumberEntryProps) {
  const { id, value, parse, onCommit, onInvalid, describedBy, label, format = String, width = "7ch", testId } = props;
  const [text, setText] = useState(() => format(value));
  const [invalid, setInvalid] = useState(false);
  const editing = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // A value changed elsewhere (undo, a preset, the slider) replaces the text unless the user is typing.
  useEffect(() => {
    if (!editing.current) {
      setText(format(value));
      setInvalid(false);
    }
  }, [value, format]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const apply = (raw: string) => {
    clearTimeout(timer.current);
    const parsed = parse(raw);
    if (!parsed.ok) {
      setInvalid(true);
      onInvalid(parsed.reason);
      return;
    }
    setInvalid(false);
    onInvalid(null);
    if (parsed.value !== value) onCommit(parsed.value);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter") apply(event.currentTarget.value);
    if (event.key === "Escape") {
      clearTimeout(timer.current);
      setText(format(value));
      setInvalid(false);
      onInvalid(null);
    }
  };

  return (
    <input
      id={id}
      className="num-entry num"
      type="text"
      inputMode="decimal"
      spellCheck={false}
      autoComplete="off"
      value={text}
      style={{ width }}
      aria-invalid={invalid}
      aria-describedby={describedBy}
      aria-label={label}
      data-testid={testId}
      onFocus={() => {
        editing.current = true;
      }}
      onBlur={(event) => {
        editing.current = false;
        apply(event.currentTarget.value);
      }}
      onKeyDown={onKeyDown}
      onChange={(event) => {
        const raw = event.currentTarget.value;
        setText(raw);
        clearTimeout(timer.current);
        timer.current = setTimeout(() => apply(raw), TYPING_PAUSE_MS);
      }}
    />
  );
}
