import { Fragment, useEffect, useRef } from "react";
import { dataValue } from "../../compute/player/captions";
import { TOUR } from "../../compute/player/tour";
import type { OutcomePart, TourNumber } from "../../compute/player/tourTry";
import { formatShort } from "../../io/formatNumber";
import { TermsText } from "../glossary/TermsText";
import { PLAYER_WORDS } from "./playerWords";

/** Where the stop's try stands: not tried, rerunning, done (with what happened), or refused. */
export type TryState =
  | { state: "ready" }
  | { state: "running" }
  | { state: "done"; outcome: OutcomePart[] }
  | { state: "refused"; reason: string };

export interface TourPanelProps {
  stop: number;
  onGo(stop: number): void;
  onClose(): void;
  tried: TryState;
  onTry(): void;
  onUndo(): void;
}

const COUNTS = new Set<TourNumber["quantity"]>(["chunks", "padding", "over-bound"]);

/** A number of the outcome: short on screen, in full (and what it is) for scripts and tests. */
function QuotedNumber({ n }: { n: TourNumber }) {
  const full = dataValue(n.value);
  return (
    <data
      className="tour-number num"
      value={full}
      title={COUNTS.has(n.quantity) ? undefined : full}
      data-testid="tour-number"
      data-quantity={n.quantity}
      data-which={n.which}
      data-value={full}
      data-t={n.t}
      data-chunk={n.chunk}
      data-k={n.k}
    >
      {COUNTS.has(n.quantity) ? String(n.value) : formatShort(n.value)}
    </data>
  );
}

/** The tour's current stop: its words, its one change to try (and Undo), back and next, one dot per stop, skip. */
export function TourPanel({ stop: at, onGo, onClose, tried, onTry, onUndo }: TourPanelProps) {
  const stop = TOUR[at];
  const tryButton = useRef<HTMLButtonElement>(null);
  const undoButton = useRef<HTMLButtonElement>(null);
  const tryBox = useRef<HTMLDivElement>(null);
  // The button pressed (Try or Undo) goes away: the focus moves to the one that replaces it.
  const moveFocus = useRef(false);
  const movingFocus = (action: () => void) => () => {
    moveFocus.current = true;
    action();
  };
  useEffect(() => {
    if (tried.state === "running") return;
    if (moveFocus.current) {
      moveFocus.current = false;
      (tried.state === "done" ? undoButton : tryButton).current?.focus({ preventScroll: true });
    }
    if (tried.state !== "done") return;
    // The outcome in view, clear of the transport bar (its scroll margin), once the new trace's
    // cursor has settled: the stage and caption above it change height with it.
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => tryBox.current?.scrollIntoView({ block: "nearest" }));
    });
    return () => cancelAnimationFrame(frame);
  }, [tried.state]);

  return (
    <section className="tour-panel" aria-label="Guided tour" data-testid="tour-panel">
      <h3>{stop.title}</h3>
      <StopText paragraphs={stop.text} />
      <div className="tour-try-box" ref={tryBox}>
        {tried.state === "ready" || tried.state === "refused" ? (
          <button
            type="button"
            className="tour-try"
            data-testid="tour-try"
            ref={tryButton}
            onClick={movingFocus(onTry)}
          >
            Try it: {stop.try.label}
          </button>
        ) : null}
        <div aria-live="polite">
          {tried.state === "running" ? <p className="tour-running">Rerunning the scan…</p> : null}
          {tried.state === "refused" ? (
            <p className="tour-refused" role="alert">
              {tried.reason}
            </p>
          ) : null}
          {tried.state === "done" ? (
            <p className="tour-outcome" data-testid="tour-outcome">
              {tried.outcome.map((part, n) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the outcome's parts are fixed per stop
                <Fragment key={n}>{typeof part === "string" ? part : <QuotedNumber n={part} />}</Fragment>
              ))}
            </p>
          ) : null}
        </div>
        {tried.state === "done" ? (
          <button
            type="button"
            className="tour-undo"
            data-testid="tour-undo"
            ref={undoButton}
            onClick={movingFocus(onUndo)}
          >
            Undo
          </button>
        ) : null}
      </div>
      <div className="tour-nav">
        <button type="button" onClick={() => onGo(at - 1)} disabled={at === 0}>
          Back
        </button>
        <span className="tour-dots">
          {TOUR.map((s, n) => (
            <button
              key={s.title}
              type="button"
              className={n === at ? "dot current" : "dot"}
              aria-label={`Tour stop ${n + 1}: ${s.title}`}
              aria-current={n === at ? "step" : undefined}
              onClick={() => onGo(n)}
            />
          ))}
        </span>
        {at < TOUR.length - 1 ? (
          <button type="button" onClick={() => onGo(at + 1)}>
            Next
          </button>
        ) : (
          <button type="button" onClick={onClose}>
            Done
          </button>
        )}
        <button type="button" className="link" onClick={onClose}>
          Skip
        </button>
      </div>
    </section>
  );
}

/** A stop's sentences, each glossary word of the tour marked where it first stands in the stop. */
function StopText({ paragraphs }: { paragraphs: string[] }) {
  const taken = new Set<string>();
  return paragraphs.map((paragraph) => (
    <p key={paragraph}>
      <TermsText text={paragraph} phrases={PLAYER_WORDS} taken={taken} />
    </p>
  ));
}
