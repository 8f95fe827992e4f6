import { XAxis } from "recharts";
import { tokenDomain, tokenTicks } from "./chartSeries";
import { X_AXIS_HEIGHT } from "./PlotOverlay";

/** Tick labels of every per-token chart. */
export const TICK = { fontSize: 11 };

/**
 * `interval` of every axis whose ticks are already spaced by us (a handful, for the plot's size):
 * show each one. Recharts' default ("preserveEnd") measures every label's text in the DOM to drop
 * the ones that would collide, which forced a page layout in the task that draws a new plot.
 */
export const EVERY_TICK = 0;

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
      interval={EVERY_TICK}
      allowDataOverflow
      height={X_AXIS_HEIGHT}
      tick={TICK}
    />
  );
}
