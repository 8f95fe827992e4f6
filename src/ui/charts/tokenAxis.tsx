import { XAxis } from "recharts";
import { tokenDomain, tokenTicks } from "./chartSeries";
import { X_AXIS_HEIGHT } from "./PlotOverlay";

/** Tick labels of every per-token chart. */
export const TICK = { fontSize: 11 };

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
      allowDataOverflow
      height={X_AXIS_HEIGHT}
      tick={TICK}
    />
  );
}
