import { memo } from "react";
import { PLOT_LEFT, PLOT_RIGHT } from "./plotLayout";

/** Vertical extent of the plot area inside a chart of a given height (recharts margin and x axis). */
export const PLOT_TOP = 8;
export const X_AXIS_HEIGHT = 24;

export interface Shade {
  spans: Array<[number, number]>;
  fill: string;
  opacity: number;
}

export interface PlotOverlayProps {
  width: number;
  height: number;
  /** Tokens on the axis. */
  length: number;
  /** Chunk starts to draw as lines (already filtered by drawableBoundaries). */
  boundaries: number[];
  boundaryStroke: string;
  /** Token spans shaded across the plot height (masked, non-finite). */
  shades: Shade[];
  hoverToken: number | null;
  hoverStroke: string;
}

/**
 * What the charts draw in token coordinates over the whole plot height: chunk boundaries, shaded
 * spans and the hover line. Plain SVG laid under the (transparent) recharts surface, in the same
 * geometry as the heatmap, so moving the pointer redraws one line instead of the whole chart, and a
 * thousand boundaries are one path rather than a thousand chart elements.
 */
export const PlotOverlay = memo(function PlotOverlay(props: PlotOverlayProps) {
  const { width, height, length, boundaries, shades, hoverToken } = props;
  const plotWidth = Math.max(1, width - PLOT_LEFT - PLOT_RIGHT);
  const bottom = height - X_AXIS_HEIGHT;
  const x = (t: number) => PLOT_LEFT + (t / Math.max(length, 1)) * plotWidth;
  const path = boundaries.map((t) => `M${Math.round(x(t)) + 0.5} ${PLOT_TOP}V${bottom}`).join("");
  return (
    <svg className="plot-overlay" width={width} height={height} aria-hidden="true">
      {shades.map((shade) =>
        shade.spans.map(([start, end]) => (
          <rect
            key={`${shade.fill}${start}`}
            x={x(start)}
            y={PLOT_TOP}
            width={Math.max(x(end) - x(start), 1)}
            height={bottom - PLOT_TOP}
            fill={shade.fill}
            fillOpacity={shade.opacity}
          />
        )),
      )}
      {path && <path d={path} stroke={props.boundaryStroke} strokeWidth={1} fill="none" />}
      {hoverToken !== null && (
        <line
          x1={x(hoverToken + 0.5)}
          x2={x(hoverToken + 0.5)}
          y1={PLOT_TOP}
          y2={bottom}
          stroke={props.hoverStroke}
          strokeWidth={1}
        />
      )}
    </svg>
  );
});
