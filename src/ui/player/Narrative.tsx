import type { ReactNode } from "react";
import type { Frame, RegionId } from "../../compute/player/frame";
import { PHASE_NOTES } from "../../compute/player/phaseNotes";
import { SHORTCUTS } from "../../compute/player/playback";
import { TermsText } from "../glossary/TermsText";
import { PLAYER_WORDS } from "./playerWords";

export interface NarrativeProps {
  frame: Frame;
  tourStop?: number;
  /** The tour's panel (TourPanel), drawn first; PlayerView draws it under the stage on narrow screens. */
  tourPanel?: ReactNode;
  /** The step's caption is drawn under the stage instead (narrow screens: read while stepping, beside the cells). */
  captionElsewhere?: boolean;
  shortcuts: boolean;
  onTerm(region: RegionId | undefined): void;
  /** Opens the tour where it was left (its first stop on a first visit). */
  onTourStart(): void;
  onShortcutsClose(): void;
  /** Drawn under the phase note (the serial loop). */
  children?: ReactNode;
}

/** The phase, its chunk and the step's sentence (announced to a screen reader as the cursor moves). */
export function StepCaption({ frame: f }: { frame: Frame }) {
  return (
    <>
      <p className="phase-name">
        <span>{f.phase.label}</span>
        {f.step.chunk >= 0 ? <span className="phase-chunk"> · chunk {f.step.chunk}</span> : null}
      </p>
      <p className="step-caption" data-testid="step-caption" aria-live="polite">
        <TermsText text={f.caption} phrases={PLAYER_WORDS} />
      </p>
    </>
  );
}

/** The narrative column: the phase, the step's sentence (announced), what the phase does, the tour. */
export function Narrative({
  frame: f,
  tourStop,
  tourPanel,
  captionElsewhere,
  shortcuts,
  onTerm,
  onTourStart,
  onShortcutsClose,
  children,
}: NarrativeProps) {
  return (
    <aside className="player-narrative" data-region="narrative">
      {tourPanel}
      {tourStop === undefined && f.cursor === 0 ? (
        // The first screen says what this is and where to start, before any step is taken.
        <p className="player-intro" data-testid="player-intro">
          slime's chunked scan of discounted returns, replayed step by step on the engine's own numbers beside the
          float64 serial loop. New here?{" "}
          <button type="button" className="link" onClick={onTourStart}>
            Take the tour
          </button>{" "}
          (nine stops, each with a change to try), or step with → and Play.
        </p>
      ) : null}
      {shortcuts ? (
        <section className="shortcuts" aria-label="Keyboard shortcuts">
          <h3>Keyboard</h3>
          <dl>
            {SHORTCUTS.map(([keys, what]) => (
              <div key={keys}>
                <dt>{keys}</dt>
                <dd>{what}</dd>
              </div>
            ))}
          </dl>
          <button type="button" onClick={onShortcutsClose}>
            Close
          </button>
        </section>
      ) : null}
      {captionElsewhere ? null : <StepCaption frame={f} />}
      <p className="phase-note">
        {PHASE_NOTES[f.phase.id].map((segment, n) =>
          typeof segment === "string" ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: the note is static text
            <span key={n}>{segment}</span>
          ) : (
            <button
              // biome-ignore lint/suspicious/noArrayIndexKey: the note is static text
              key={n}
              type="button"
              className={`term term-${segment.region}`}
              onPointerEnter={() => onTerm(segment.region)}
              onPointerLeave={() => onTerm(undefined)}
              onFocus={() => onTerm(segment.region)}
              onBlur={() => onTerm(undefined)}
            >
              {segment.term}
            </button>
          ),
        )}
      </p>
      {children}
    </aside>
  );
}
