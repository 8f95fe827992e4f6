import { memo } from "react";
import type { ReadoutLine } from "./readout";

/** The fixed readout in the right column: never covers the data, stays live as values change. */
export const HoverReadout = memo(function HoverReadout({ lines }: { lines: ReadoutLine[] | null }) {
  return (
    <section className="panel readout" aria-labelledby="pg-readout-title">
      <h2 id="pg-readout-title">Token</h2>
      {lines ? (
        <dl className="figures num" data-testid="hover-readout">
          {lines.map((line) => (
            <div key={line.label} className={line.alert ? "alert" : undefined}>
              <dt>{line.label}</dt>
              <dd>{line.value}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="muted small">Hover a bar, a chart or a heatmap cell to read every value of that token.</p>
      )}
    </section>
  );
});
