import { memo } from "react";
import { countText } from "../../../io/countText";
import { paddingStats } from "../../../io/playgroundProblem";
import {
  GENERATORS,
  type GeneratorId,
  type PlaygroundData,
  type PlaygroundRow,
  type PlaygroundState,
} from "../../../io/playgroundState";
import { GENERATOR_INFO } from "../../../io/presets";
import { Field, helpId } from "./Field";
import { Fold } from "./Fold";
import { NumberEntry } from "./NumberEntry";
import { SelectField } from "./SelectField";
import { parseForState } from "./validateEdit";
import { WithHelp } from "./WithHelp";

export interface DataControlsProps {
  data: PlaygroundData;
  /** The whole state now, read when an entry is checked as the state it would make (stable). */
  current(): PlaygroundState;
  rows: PlaygroundRow[];
  edit(change: (state: PlaygroundState) => PlaygroundState): void;
  fieldErrors: Record<string, string>;
  onFieldError(id: string, reason: string | null): void;
}

type PresetData = Extract<PlaygroundData, { source: "preset" }>;

/** A fresh seed: a new draw of the same generator (the old one stays in the undo history). */
function newSeed(old: number): number {
  let seed = old;
  while (seed === old) seed = Math.floor(Math.random() * 2 ** 31);
  return seed;
}

/**
 * Seeded data (generator, rows, tokens, ragged, seed) or, once drawn on or imported, inline rows.
 * Choosing a generator replaces inline rows (undo brings them back). Memoised on the data: a γ or
 * chunk-size edit does not render it again.
 */
export const DataControls = memo(function DataControls({
  data,
  current,
  rows,
  edit,
  fieldErrors,
  onFieldError,
}: DataControlsProps) {
  const preset: PresetData | null = data.source === "preset" ? data : null;
  const stats = paddingStats(rows);
  const setData = (next: Partial<PresetData>) =>
    edit((s) => {
      const base: PresetData =
        s.data.source === "preset"
          ? s.data
          : { source: "preset", preset: "dense", seed: 1, rows: rows.length, tokens: stats.maxLength, ragged: false };
      return { ...s, data: { ...base, ...next } };
    });
  /** A generator's number (rows, tokens, seed), checked as the whole state it makes before it is committed. */
  const generatorEntry = (generator: PresetData, key: "rows" | "tokens" | "seed", width: string) => (
    <NumberEntry
      id={`pg-${key}`}
      value={generator[key]}
      parse={(text) => parseForState(key, text, (value) => ({ ...current(), data: { ...generator, [key]: value } }))}
      onCommit={(v) => setData({ [key]: v })}
      onInvalid={(r) => onFieldError(key, r)}
      describedBy={helpId(`pg-${key}`)}
      width={width}
    />
  );

  return (
    <>
      <p className="field-hint" data-testid="rows-source">
        {preset
          ? "The rows below are drawn by a seeded generator."
          : "The rows in the editor: draw on them, import a file, or pick an example from the toolbar."}
      </p>
      <Fold id="pg-rows-from" summary="Rows from a generator" forceOpen={preset !== null}>
        <SelectField<GeneratorId | "inline">
          id="pg-generator"
          label="Rows from"
          help={
            preset
              ? GENERATOR_INFO[preset.preset].caption
              : "Pick a generator to replace the editor's rows with seeded ones (undo brings them back)."
          }
          options={preset ? GENERATORS : ["inline", ...GENERATORS]}
          selected={preset?.preset ?? "inline"}
          optionLabel={(g) => (g === "inline" ? "the editor's rows" : GENERATOR_INFO[g].label)}
          onSelect={(g) => {
            if (g !== "inline") setData({ preset: g });
          }}
          testId="generator-select"
        />
        {preset ? (
          <>
            <div className="field-pair">
              <Field id="pg-rows" label="Rows" help="Batch rows B (sequences)." invalid={fieldErrors.rows}>
                {generatorEntry(preset, "rows", "6ch")}
              </Field>
              <Field id="pg-tokens" label="Tokens" help="Longest row length T (max_len)." invalid={fieldErrors.tokens}>
                {generatorEntry(preset, "tokens", "7ch")}
              </Field>
            </div>
            <div className="field-pair">
              <Field
                id="pg-seed"
                label="Seed"
                help="The generator's seed: the same seed draws the same rows, in any browser."
                invalid={fieldErrors.seed}
              >
                <div className="stepper">
                  {generatorEntry(preset, "seed", "10ch")}
                  <button
                    type="button"
                    aria-describedby={helpId("pg-seed")}
                    onClick={() => setData({ seed: newSeed(preset.seed) })}
                  >
                    New seed
                  </button>
                </div>
              </Field>
            </div>
            <WithHelp
              shown
              id="pg-ragged-help"
              help="Rows of different lengths, right-padded to the longest for one batched scan."
            >
              <label className="check">
                <input
                  type="checkbox"
                  checked={preset.ragged}
                  aria-describedby="pg-ragged-help"
                  onChange={(event) => setData({ ragged: event.currentTarget.checked })}
                />
                ragged rows (different lengths)
              </label>
            </WithHelp>
          </>
        ) : null}
      </Fold>
      <p className="padding-share num" data-testid="padding-share">
        [{stats.rows} × {stats.maxLength}] scan: {countText(stats.realTokens)} real tokens,{" "}
        <strong>
          {(stats.paddingShare * 100).toFixed(stats.paddingShare > 0 && stats.paddingShare < 0.01 ? 2 : 0)}%
        </strong>{" "}
        padding
      </p>
    </>
  );
});
