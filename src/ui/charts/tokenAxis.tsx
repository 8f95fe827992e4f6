import { CartesianGrid, XAxis } from "recharts";
import { tokenDomain, tokenTicks } from "./chartSeries";
import { X_AXIS_HEIGHT } from "./PlotOverlay";

/** Tick labels of every per-token chart. */
export const TICK = { fontSize: 11 };

/**
 * For every axis whose ticks we give (a handful, spaced by us for the plot's size): recharts shows
 * each one (`interval` 0) and computes no "nice" ticks of its own. By default it measured every
 * label's text in the DOM to drop those that would collide (a page layout in the task that draws a
 * new plot) and worked out nice ticks with decimal.js (15–25 ms per chart), then drew ours anyway.
 */
export const GIVEN_TICKS = { interval: 0, niceTicks: "none" } as const;

/**
 * The token axis every per-token chart shares: tokens 0…length−1, ticks spaced for the plot's width.
 * A function returning recharts' own `XAxis`, not a component, so LineChart finds it among its children.
 */
export function tokenXAxis(length: number, plotWidth: number) {
  return (
    <XAxis
      dataKey="t"
      type="number"
      domain={tokenDomain(length)}
      ticks={tokenTicks(length, plotWidth)}
      {...GIVEN_TICKS}
      allowDataOverflow
      height={X_AXIS_HEIGHT}
      tick={TICK}
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
export function valueGrid() {
  return <CartesianGrid vertical={false} verticalCoordinatesGenerator={NO_LINES} stroke="#e5e7eb" />;
}
