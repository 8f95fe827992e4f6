import { rgbCss } from "../../compute/heatmap/colourScale";
import type { LegendModel } from "./legendModel";

/** The heatmap's legend: what the colour measures, one swatch per decade with its edges, the special cells and notes. */
export function HeatmapLegend({ model }: { model: LegendModel }) {
  return (
    <div className="heatmap-legend">
      <div className="heatmap-legend-title">{model.title}</div>
      <div className="heatmap-legend-row">
        <div
          className="heatmap-ramp"
          role="img"
          aria-label={`from ${model.ticks[0]} to ${model.ticks.at(-1)}, one colour per decade`}
        >
          <div className="heatmap-ramp-swatches">
            {model.swatches.map((c, i) => (
              <span key={model.ticks[i]} style={{ background: rgbCss(c) }} />
            ))}
          </div>
          <div className="heatmap-ramp-ticks">
            {model.ticks.map((tick) => (
              <span key={tick}>{tick}</span>
            ))}
          </div>
        </div>
        <ul className="heatmap-keys">
          {model.keys.map((key) => (
            <li key={key.kind}>
              <span className={`heatmap-key heatmap-key-${key.kind}`} style={{ background: keyBackground(key) }}>
                {key.kind === "overBound" ? "▲" : key.kind === "worst" ? "▼" : ""}
              </span>
              {key.label}
            </li>
          ))}
        </ul>
      </div>
      {model.notes.map((note) => (
        <p key={note} className="heatmap-note">
          {note}
        </p>
      ))}
    </div>
  );
}

function keyBackground(key: LegendModel["keys"][number]): string | undefined {
  if (key.kind === "masked") return undefined; // hatched by CSS
  if (key.kind === "overBound" || key.kind === "unchecked" || key.kind === "worst") return "#fff";
  if (key.kind === "chunkedOnlyNonFinite") {
    // The cross drawn on the heatmap's cells, over their colour.
    const line = (to: string) => `linear-gradient(to ${to}, transparent 44%, #000 44% 56%, transparent 56%)`;
    return `${line("top right")}, ${line("bottom right")}, ${rgbCss(key.colour)}`;
  }
  return rgbCss(key.colour);
}
