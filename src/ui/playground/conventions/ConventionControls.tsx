import { Fragment } from "react";
import { LIBRARY_LABELS } from "../../../compute/conventions/conventionDifferences";
import { conventionOf } from "../../../io/conventionProblem";
import {
  CONVENTION_LIBRARIES,
  type ConventionLibrary,
  type ConventionSettings,
  type PlaygroundState,
} from "../../../io/playgroundState";
import { Field, helpId } from "../controls/Field";
import { NumberEntry } from "../controls/NumberEntry";
import { Segmented } from "../controls/Segmented";
import { parseForState } from "../controls/validateEdit";
import { WithHelp } from "../controls/WithHelp";

export interface ConventionControlsProps {
  state: PlaygroundState;
  edit(change: (state: PlaygroundState) => PlaygroundState): void;
  fieldErrors: Record<string, string>;
  onFieldError(id: string, reason: string | null): void;
}

/** The two ends of the reward clip, each its own entry (one line of help says what both do). */
const CLIP_ENDS = [
  { end: 0, word: "low", field: "clipLow" },
  { end: 1, word: "high", field: "clipHigh" },
] as const;

const LIBRARY_HELP =
  "Whose rules turn the rollout into token rewards, returns and advantages: slime, OpenRLHF or verl differ in where the outcome reward lands, whether the return flows through masked tokens, how GAE treats them, and how advantages are whitened.";

/** The library conventions of REINFORCE++ and GAE: the library shown, the ones compared, whitening and OpenRLHF's clip. */
export function ConventionControls({ state, edit, fieldErrors, onFieldError }: ConventionControlsProps) {
  const settings = conventionOf(state);
  const setConvention = (change: (c: ConventionSettings) => ConventionSettings) =>
    edit((s) => ({ ...s, convention: change(conventionOf(s)) }));
  const others = CONVENTION_LIBRARIES.filter((library) => library !== settings.library);
  const clip = settings.rewardClip;
  const parseClip = (end: 0 | 1) => (text: string) =>
    parseForState(`clip ${end === 0 ? "low" : "high"}`, text, (value) => {
      const next: [number, number] = clip ? [clip[0], clip[1]] : [-10, 10];
      next[end] = value;
      return { ...state, convention: { ...settings, rewardClip: next } };
    });
  const setClipEnd = (end: 0 | 1) => (value: number) =>
    setConvention((c) => {
      const next: [number, number] = c.rewardClip ? [c.rewardClip[0], c.rewardClip[1]] : [-10, 10];
      next[end] = value;
      return { ...c, rewardClip: next };
    });

  return (
    <div className="convention-controls">
      <Segmented
        id="pg-library"
        label="Library"
        help={LIBRARY_HELP}
        options={CONVENTION_LIBRARIES}
        labels={LIBRARY_LABELS}
        value={settings.library}
        onChange={(library) =>
          setConvention((c) => ({ ...c, library, compare: c.compare.filter((other) => other !== library) }))
        }
      />
      <WithHelp
        shown
        id="pg-compare-help"
        help="Run the ticked libraries on the same inputs too: their outputs are overlaid, the heatmap shows |compared − shown| per token, and a sentence names each rule that differs and where it bites."
      >
        <fieldset className="compare-set">
          <legend>Compare with</legend>
          {others.map((other: ConventionLibrary) => (
            <label key={other} className="check">
              <input
                type="checkbox"
                checked={settings.compare.includes(other)}
                aria-describedby="pg-compare-help"
                data-testid={`compare-${other}`}
                onChange={(event) => {
                  const on = event.currentTarget.checked;
                  setConvention((c) => ({
                    ...c,
                    compare: on
                      ? CONVENTION_LIBRARIES.filter((l) => l !== c.library && (c.compare.includes(l) || l === other))
                      : c.compare.filter((l) => l !== other),
                  }));
                }}
              />
              {LIBRARY_LABELS[other]}
            </label>
          ))}
        </fieldset>
      </WithHelp>
      <WithHelp
        shown
        id="pg-normalize-help"
        help="Whiten the advantages over the batch's mask-1 tokens, each library with its own formula. slime's normalize_advantages flag; OpenRLHF and verl always whiten, so off shows their advantages just before that step."
      >
        <label className="check">
          <input
            type="checkbox"
            checked={settings.normalize}
            aria-describedby="pg-normalize-help"
            data-testid="normalize-toggle"
            onChange={(event) => {
              const normalize = event.currentTarget.checked;
              setConvention((c) => ({ ...c, normalize }));
            }}
          />
          whiten advantages
        </label>
      </WithHelp>
      <Field
        id="pg-clip-low"
        label="OpenRLHF reward clip"
        value={clip ? `[${clip[0]}, ${clip[1]}]` : "none"}
        help="OpenRLHF clamps the outcome reward to this range before placing it (its command-line default is [-10, 10]). The other libraries do not clip."
        invalid={fieldErrors.clipLow ?? fieldErrors.clipHigh}
      >
        <div className="clip-row">
          <label className="check">
            <input
              type="checkbox"
              checked={clip !== null}
              aria-describedby={helpId("pg-clip-low")}
              data-testid="clip-toggle"
              onChange={(event) => {
                const on = event.currentTarget.checked;
                setConvention((c) => ({ ...c, rewardClip: on ? [-10, 10] : null }));
              }}
            />
            clip
          </label>
          {clip
            ? CLIP_ENDS.map(({ end, word, field }) => (
                <Fragment key={word}>
                  {end === 1 ? <span aria-hidden="true">…</span> : null}
                  <NumberEntry
                    id={`pg-clip-${word}`}
                    label={`clip ${word}`}
                    value={clip[end]}
                    parse={parseClip(end)}
                    onCommit={setClipEnd(end)}
                    onInvalid={(reason) => onFieldError(field, reason)}
                    describedBy={helpId("pg-clip-low")}
                    width="5ch"
                  />
                </Fragment>
              ))
            : null}
        </div>
      </Field>
    </div>
  );
}
