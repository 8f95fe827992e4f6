import { TermsText } from "../glossary/TermsText";
import { CHART_WORDS } from "./chartWords";

/** A chart's legend: the same model drawn as HTML beside the chart and into its PNG export. */
export interface LegendEntry {
  label: string;
  colour: string;
  /** SVG dash array of a line entry (none: solid). */
  dash?: string;
  /** Line width, or 0 for a shaded area. */
  width: number;
}

export interface ChartLegendModel {
  title: string;
  entries: LegendEntry[];
  /** Plain-language notes: downsampling, the log floor, gaps. */
  notes: string[];
}

export function LegendSample({ entry }: { entry: LegendEntry }) {
  return (
    <svg width="28" height="10" aria-hidden="true" className="legend-sample">
      {entry.width === 0 ? (
        <rect x="0" y="0" width="28" height="10" fill={entry.colour} fillOpacity={0.25} />
      ) : (
        <line
          x1="0"
          y1="5"
          x2="28"
          y2="5"
          stroke={entry.colour}
          strokeWidth={entry.width}
          strokeDasharray={entry.dash}
        />
      )}
    </svg>
  );
}

export function ChartLegend({ model }: { model: ChartLegendModel }) {
  // Each glossary word is marked where it first stands in the legend; the PNG export draws the plain labels.
  const taken = new Set<string>();
  return (
    <div className="chart-legend">
      <ul>
        {model.entries.map((entry) => (
          <li key={entry.label}>
            <LegendSample entry={entry} />
            {/* One flex item, so the words and their marked parts keep the label's own spaces. */}
            <span>
              <TermsText text={entry.label} phrases={CHART_WORDS} taken={taken} />
            </span>
          </li>
        ))}
      </ul>
      {model.notes.map((note) => (
        <p key={note} className="chart-note">
          {note}
        </p>
      ))}
    </div>
  );
}
