import { TOUR } from "./tour";

export interface TourPanelProps {
  stop: number;
  onGo(stop: number): void;
  onClose(): void;
}

/** The tour's current stop: its words, back and next, one dot per stop, skip. */
export function TourPanel({ stop: at, onGo, onClose }: TourPanelProps) {
  const stop = TOUR[at];
  return (
    <section className="tour-panel" aria-label="Guided tour" data-testid="tour-panel">
      <h3>{stop.title}</h3>
      {stop.text.map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
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
