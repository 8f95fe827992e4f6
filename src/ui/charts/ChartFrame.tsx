import {
  type PointerEvent,
  type ReactElement,
  type ReactNode,
  type Ref,
  useImperativeHandle,
  useRef,
  useState,
} from "react";
import { ChartLegend, type ChartLegendModel } from "./chartLegend";
import { type ChartHandle, chartPng } from "./chartPng";
import { tokenAtX } from "./chartSeries";
import { PLOT_LEFT, PLOT_RIGHT } from "./plotLayout";
import { PLOT_TOP, X_AXIS_HEIGHT } from "./TokenPlot";
import { useWidth } from "./useWidth";
import "./charts.css";

/** What every token chart takes from the page around it. */
export interface TokenChartProps {
  /** Token highlighted by a shared hover; leave undefined to let the chart track its own pointer. */
  hoverToken?: number | null;
  /** Called with the token under the pointer, or null when the pointer leaves. */
  onHoverToken?(t: number | null): void;
  /** Chart height in CSS pixels, axes included (each chart has its own default). */
  height?: number;
  /** Receives the chart's handle (PNG export). */
  ref?: Ref<ChartHandle>;
}

/**
 * A token chart's box: its wrapper, its width, the plot's width between the axes, the height (CSS px),
 * and whether the width is the wrapper's own yet (`laidOut`). Until the browser's layout reports the
 * wrapper, the chart's figures are those of a default width and its plot is not drawn (ChartFrame
 * leaves the plot's room empty and `plotOf` gives null, so that nothing tells it drawn): a chart is
 * drawn once, at its own width, in a task after the one that mounted it.
 */
export function useChartBox(height: number) {
  const wrapRef = useRef<HTMLDivElement>(null);
  const laidOutWidth = useWidth(wrapRef);
  const width = laidOutWidth ?? DEFAULT_WIDTH;
  const laidOut = laidOutWidth !== null;
  return { wrapRef, width, laidOut, height, plotWidth: Math.max(1, width - PLOT_LEFT - PLOT_RIGHT) };
}
export type ChartBox = ReturnType<typeof useChartBox>;

/** The chart's plot once its box is laid out, else null (nothing drawn, nothing to tell drawn). */
export function plotOf(box: ChartBox, plot: ReactElement): ReactElement | null {
  return box.laidOut ? plot : null;
}

/** The width a chart's figures are computed for before its box is laid out. */
const DEFAULT_WIDTH = 640;
export interface ChartFrameProps {
  className: string;
  legend: ChartLegendModel;
  box: ChartBox;
  /** The chart's own props: the shared hover and the handle. */
  chart: TokenChartProps;
  /** Tokens on the axis. */
  length: number;
  /** The chart's TokenPlot, memoised by the chart so that hovering never re-renders it; null before its box is laid out. */
  plot: ReactElement | null;
  /** The readout line for a hovered token. */
  readout(t: number): ReactNode;
  /**
   * A second readout under the first (the returns chart's carries), with what it says before a
   * hover; it wraps where the chart is narrow, in a fixed two lines. Absent: one line.
   */
  readoutMore?: { idle: string; at(t: number): ReactNode };
}

/** Caption with a live readout, the plot with its hover line and pointer tracking, the legend, PNG export. */
export function ChartFrame(props: ChartFrameProps) {
  const { length, chart } = props;
  const { width, height, wrapRef } = props.box;
  const [ownHover, setOwnHover] = useState<number | null>(null);
  const hover = chart.hoverToken !== undefined ? chart.hoverToken : ownHover;
  const shown = hover !== null && hover >= 0 && hover < length ? hover : null;

  const legendRef = useRef(props.legend);
  legendRef.current = props.legend;
  useImperativeHandle(
    chart.ref,
    () => ({
      toPng: () => {
        const plot = wrapRef.current?.querySelector<SVGSVGElement>("svg.token-plot");
        if (!plot) return Promise.reject(new Error("the chart is not on screen"));
        return chartPng(plot, legendRef.current);
      },
    }),
    [wrapRef],
  );

  const setHover = (t: number | null) => {
    if (t === hover) return;
    setOwnHover(t);
    chart.onHoverToken?.(t);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const x = e.clientX - e.currentTarget.getBoundingClientRect().left;
    setHover(tokenAtX(x, PLOT_LEFT, width - PLOT_RIGHT, length));
  };

  return (
    <figure className={`scan-chart ${props.className}`}>
      <figcaption>
        <span className="scan-chart-title">{props.legend.title}</span>
        <output className="scan-chart-readout" aria-live="polite">
          {shown === null ? "hover for values" : props.readout(shown)}
        </output>
        {props.readoutMore ? (
          <output className="scan-chart-readout scan-chart-readout-more" aria-live="polite">
            {shown === null ? props.readoutMore.idle : props.readoutMore.at(shown)}
          </output>
        ) : null}
      </figcaption>
      <div
        ref={wrapRef}
        className="scan-chart-plot"
        style={{ height }}
        onPointerMove={onPointerMove}
        onPointerLeave={() => setHover(null)}
      >
        {props.plot}
        {shown === null ? null : (
          // Its own element over the plot: moving the pointer moves one line, the plot is not redrawn.
          <div
            className="plot-hover"
            style={{
              top: PLOT_TOP,
              height: height - X_AXIS_HEIGHT - PLOT_TOP,
              transform: `translateX(${PLOT_LEFT + ((shown + 0.5) / Math.max(length, 1)) * (width - PLOT_LEFT - PLOT_RIGHT)}px)`,
            }}
          />
        )}
      </div>
      <ChartLegend model={props.legend} />
    </figure>
  );
}
