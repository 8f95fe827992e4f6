import { useMemo, useState } from "react";
import type { FieldId } from "../../compute/player/playerEdits";
import { formatShort } from "../../io/formatNumber";
import { materializeRows } from "../../io/playgroundProblem";
import type { PlaygroundState } from "../../io/playgroundState";
import { Term } from "../glossary/Term";
import { horizon, nextPowerOfTwo } from "../playground/controls/controlMath";
import { NumberEntry } from "../playground/controls/NumberEntry";
import { ToolbarButton } from "../ToolbarButton";
import { type Checked, parseChunkField, parseField } from "./fieldParse";

/** Which control an edit came from: its name starts every refusal ("γ: …", "Chunk size C: …"). */
export const FIELD_NAMES = {
  gamma: "γ (discount)",
  lambd: "λ (GAE)",
  chunkSize: "Chunk size C",
  length: "Length T",
} as const satisfies Record<FieldId, string>;

export interface PlayerControlsProps {
  /** The state the controls show; undefined when the source cannot be edited (`why` says so). */
  state?: PlaygroundState;
  why?: string;
  /** The row the stage follows: the one the reward editor draws on. */
  focusRow: number;
  /** Tries an edit: null when applied, else the reason (naming the field); the last good source stays. */
  onEdit(field: FieldId, change: (state: PlaygroundState) => PlaygroundState): string | null;
  /** Checks an edit without applying it (a typed value is checked before it is committed). */
  onCheck(field: FieldId, change: (state: PlaygroundState) => PlaygroundState): string | null;
  /** Whether the reward editor (PlayerRewardEditor, drawn over the stage) is open. */
  drawing: boolean;
  onDrawing(open: boolean): void;
  lengthEdit(state: PlaygroundState, length: number): PlaygroundState;
}

const ERROR_ID = "player-control-error";

/**
 * γ, λ (GAE), chunk size and length (and the switch of the reward editor), changed where the explanation is:
 * each edit reruns the scan and the player stays on the same phase and chunk. A typed value that
 * is refused stays in its field (red), its reason is shown naming the field, and nothing changes.
 */
export function PlayerControls({
  state,
  why,
  focusRow,
  onEdit,
  onCheck,
  drawing,
  onDrawing,
  lengthEdit,
}: PlayerControlsProps) {
  const [errors, setErrors] = useState<Partial<Record<FieldId, string>>>({});
  const rows = useMemo(() => (state ? materializeRows(state) : []), [state]);
  const cols = rows.reduce((max, r) => Math.max(max, r.length), 0);

  if (!state) {
    return (
      <p className="player-controls-off" data-testid="player-controls-off">
        {why}
      </p>
    );
  }
  const b = Math.min(focusRow, rows.length - 1);
  const setError = (field: FieldId, reason: string | null) =>
    setErrors((e) => {
      const next = { ...e };
      if (reason) next[field] = reason;
      else delete next[field];
      return next;
    });
  const tryEdit = (field: FieldId, change: (s: PlaygroundState) => PlaygroundState) =>
    setError(field, onEdit(field, change));
  /** A typed value: the field's own rule, then the whole edit, checked before it is committed. */
  const parser =
    (field: FieldId, own: (text: string) => Checked, change: (s: PlaygroundState, v: number) => PlaygroundState) =>
    (text: string): Checked => {
      const checked = own(text);
      if (!checked.ok) return checked;
      const refused = onCheck(field, (s) => change(s, checked.value));
      return refused ? { ok: false, reason: refused } : checked;
    };
  const setGamma = (s: PlaygroundState, gamma: number) => ({ ...s, gamma });
  const setLambda = (s: PlaygroundState, lambd: number) => ({ ...s, lambd });
  const setChunk = (s: PlaygroundState, chunkSize: number) => ({ ...s, chunkSize });
  const h = horizon(state.gamma);
  const messages = Object.values(errors);
  /** A field's typed entry: refused text stays (red) with its reason, a good value is applied. */
  const entry = (
    field: FieldId,
    id: string,
    value: number,
    width: string,
    own: (text: string) => Checked,
    change: (s: PlaygroundState, v: number) => PlaygroundState,
  ) => (
    <NumberEntry
      id={id}
      testId={id}
      value={value}
      width={width}
      describedBy={errors[field] ? ERROR_ID : undefined}
      parse={parser(field, own, change)}
      onCommit={(v) => tryEdit(field, (s) => change(s, v))}
      onInvalid={(reason) => setError(field, reason)}
    />
  );
  const unitInterval = (field: FieldId) => (text: string) => parseField(FIELD_NAMES[field], text, { min: 0, max: 1 });

  return (
    <section className="player-controls" aria-label="Change the scan">
      <div className="pc-field pc-gamma">
        <label htmlFor="player-gamma">γ</label>
        <Term word="Discount" />
        <input
          type="range"
          min={0}
          max={1}
          step={0.01}
          value={state.gamma}
          aria-label="γ (discount), slider"
          aria-valuetext={String(state.gamma)}
          data-testid="player-gamma-slider"
          onChange={(e) => tryEdit("gamma", (s) => setGamma(s, Number(e.currentTarget.value)))}
        />
        {entry("gamma", "player-gamma", state.gamma, "6ch", unitInterval("gamma"), setGamma)}
        <span className="pc-derived num" data-testid="player-horizon" title="Effective horizon 1/(1 − γ)">
          horizon 1/(1−γ) = {Number.isFinite(h) ? `${formatShort(h)} tokens` : "∞"}
        </span>
      </div>
      {state.estimator === "gae" ? (
        <div className="pc-field">
          <label htmlFor="player-lambda">λ</label>
          {entry("lambd", "player-lambda", state.lambd, "6ch", unitInterval("lambd"), setLambda)}
          <span className="pc-derived num">d = γλ = {formatShort(state.gamma * state.lambd)}</span>
        </div>
      ) : null}
      <div className="pc-field">
        <label htmlFor="player-chunk-size">C</label>
        <Term word="Chunk" />
        <ToolbarButton
          label="Halve the chunk size"
          disabled={state.chunkSize <= 1}
          onClick={() => tryEdit("chunkSize", (s) => setChunk(s, nextPowerOfTwo(s.chunkSize, -1)))}
        >
          −
        </ToolbarButton>
        {entry("chunkSize", "player-chunk-size", state.chunkSize, "5ch", parseChunkField, setChunk)}
        <ToolbarButton
          label="Double the chunk size"
          onClick={() => tryEdit("chunkSize", (s) => setChunk(s, nextPowerOfTwo(s.chunkSize, 1)))}
        >
          +
        </ToolbarButton>
      </div>
      <div className="pc-field">
        <label htmlFor="player-length">T</label>
        {entry(
          "length",
          "player-length",
          cols,
          "6ch",
          (t) => parseField(FIELD_NAMES.length, t, { min: 1, max: 65536, whole: true }),
          lengthEdit,
        )}
        <span className="pc-derived">tokens</span>
      </div>
      <ToolbarButton
        className="pc-draw"
        aria-expanded={drawing}
        aria-controls={drawing ? "player-reward-editor" : undefined}
        testId="player-draw-rewards"
        onClick={() => onDrawing(!drawing)}
      >
        {drawing
          ? "Hide the reward editor"
          : `Draw or type ${rows.length > 1 ? `row ${b}'s` : "the"} ${state.estimator === "reinforce_pp" ? "KL" : "rewards"}`}
      </ToolbarButton>
      {messages.length > 0 ? (
        <p id={ERROR_ID} className="player-control-error" role="alert" data-testid="player-control-error">
          {messages.join(" ")} (the player keeps the last good value)
        </p>
      ) : null}
    </section>
  );
}
