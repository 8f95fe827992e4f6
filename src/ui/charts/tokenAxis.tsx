import { type ReactElement, type ReactNode, useMemo } from "react";
import { type BaseTickContentProps, CartesianGrid, LineChart, XAxis, YAxis } from "recharts";
import { tokenDomain, tokenTicks } from "./chartSeries";
import { PLOT_TOP, X_AXIS_HEIGHT } from "./PlotOverlay";
import { PLOT_RIGHT } from "./plotLayout";

/** Font size of every per-token chart's tick labels, px. */
const TICK_FONT_SIZE = 11;

/** Where recharts' own Text puts one line of text for each vertical anchor. */
const ANCHOR_DY = { start: "0.71em", middle: "0.355em", end: "0" } as const;

/**
 * A tick label as one plain SVG text, where recharts' own Text would first measure each new
 * label's words in the DOM to wrap them (10–20 ms per chart). Our labels are short numbers.
 */
function plainTick(props: BaseTickContentProps) {
  const { x, y, payload, index, tickFormatter } = props;
  return (
    <text
      x={x}
      y={y}
      dy={ANCHOR_DY[props.verticalAnchor]}
      textAnchor={props.textAnchor}
      fill={props.fill}
      fontSize={TICK_FONT_SIZE}
      className={props.className}
    >
      {tickFormatter ? tickFormatter(payload.value, index) : String(payload.value)}
    </text>
  );
}

/**
 * For every axis whose ticks we give (a handful, spaced by us for the plot's size): recharts shows
 * each one (`interval` 0), computes no "nice" ticks of its own and draws the labels as plain text.
 * By default it measured every label's text in the DOM to drop those that would collide (a page
 * layout in the task that draws a new plot) and worked out nice ticks with decimal.js (15–25 ms
 * per chart), then drew ours anyway.
 */
export const GIVEN_TICKS = { interval: 0, niceTicks: "none", tick: plainTick } as const;

/**
 * The token axis every per-token chart shares: tokens 0…length−1, ticks spaced for the plot's width.
 * A function returning recharts' own `XAxis`, not a component, so LineChart finds it among its children.
 */
function tokenXAxis(length: number, plotWidth: number) {
  return (
    <XAxis
      dataKey="t"
      type="number"
      domain={tokenDomain(length)}
      ticks={tokenTicks(length, plotWidth)}
      {...GIVEN_TICKS}
      allowDataOverflow
      height={X_AXIS_HEIGHT}
    />
  );
}

/** No vertical grid lines: what `verticalCoordinatesGenerator` gives a grid that draws none. */
const NO_LINES = () => [];

/**
 * The horizontal value lines behind every per-token chart. Recharts computes the vertical lines'
 * places even when it draws none, and on a chart's first render (before its XAxis is registered)
 * it does so on a default category axis with a tick per data point, measuring each label's text in
 * the DOM: 50–170 ms in the task that opened the page. A grid that draws no vertical lines need
 * not place them.
 */
const VALUE_GRID = <CartesianGrid vertical={false} verticalCoordinatesGenerator={NO_LINES} stroke="#e5e7eb" />;

/** A value axis whose domain and ticks we give. */
export interface ValueAxis {
  domain: [number, number];
  ticks: number[];
  tickFormatter(value: number): string;
}

/**
 * The grid, the token axis and the value axis of a per-token chart, as elements that keep their
 * identity while their values stay the same. Recharts' axes register their settings in the chart's
 * store from a layout effect on every render (a new settings object each time), and the store tells
 * its subscribers in the next animation frame: every re-rendered axis re-rendered the whole chart
 * again in that frame (3–5 ms a chart at teaching size, in the frame that shows an edit). An axis
 * element that keeps its identity is not re-rendered, so a new plot whose axes are unchanged
 * re-renders only its lines, and a new value domain only what depends on it.
 */
export function useTokenChartAxes(length: number, plotWidth: number, value: ValueAxis, valueAxisWidth: number) {
  const xAxis = useMemo(() => tokenXAxis(length, plotWidth), [length, plotWidth]);
  const { domain, ticks, tickFormatter } = value;
  const valueKey = JSON.stringify([domain, ticks]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: valueKey stands for the domain and the ticks.
  const yAxis = useMemo(
    () => (
      <YAxis
        width={valueAxisWidth}
        type="number"
        domain={domain}
        ticks={ticks}
        tickFormatter={tickFormatter}
        allowDataOverflow
        {...GIVEN_TICKS}
      />
    ),
    [valueKey, tickFormatter, valueAxisWidth],
  );
  return useMemo(() => ({ grid: VALUE_GRID, xAxis, yAxis }), [xAxis, yAxis]);
}

/** What useTokenChartAxes returns. */
export type TokenChartAxes = ReturnType<typeof useTokenChartAxes>;

const MARGIN = { top: PLOT_TOP, right: PLOT_RIGHT, bottom: 0, left: 0 };

/** A per-token chart's plot: recharts' LineChart with the chart's grid and axes, then its lines. */
export function tokenPlot(width: number, height: number, axes: TokenChartAxes, lines: ReactNode): ReactElement {
  return (
    <LineChart width={width} height={height} margin={MARGIN}>
      {axes.grid}
      {axes.xAxis}
      {axes.yAxis}
      {lines}
    </LineChart>
  );
}
