import type { ReactNode } from "react";
import { CartesianGrid, Legend, Line, LineChart, XAxis, YAxis } from "recharts";
import { logTicks, STRATEGY_STYLE } from "../../compute/bench/benchChartData";
import type { BenchStrategy } from "../../compute/bench/benchPlan";

const TICK = { fontSize: 11 };
const Y_AXIS_WIDTH = 72;
const X_AXIS_HEIGHT = 36;
/**
 * What the axes and the legend take from the chart beside its margins, in pixels: the plotting
 * area is the rest (the legend's height is about one line of 12 px text and its padding).
 */
export const PLOT_INSET = { left: Y_AXIS_WIDTH, top: 26, bottom: X_AXIS_HEIGHT };

/** An axis of a bench chart: logarithmic, over `domain`; recharts writes the ticks when no formatter is given. */
export interface LogAxis {
  dataKey: string;
  domain: [number, number];
  tickFormatter?: (value: number) => string;
}

/**
 * The bench's charts share one frame: both axes logarithmic, one line per strategy in its own colour,
 * dash and legend name. `children` draw over the lines (the sweep rings its best chunk size).
 */
export function StrategyLogChart<P>(props: {
  width: number;
  height: number;
  margin: { top: number; right: number; bottom: number; left: number };
  x: LogAxis & { ticks: number[]; label: string };
  y: LogAxis;
  lines: { strategy: BenchStrategy; points: P[] }[];
  children?: ReactNode;
}) {
  const { x, y } = props;
  const [yMin, yMax] = y.domain;
  return (
    <LineChart width={props.width} height={props.height} margin={props.margin}>
      <CartesianGrid stroke="#e5e7eb" />
      <XAxis
        dataKey={x.dataKey}
        type="number"
        scale="log"
        domain={x.domain}
        ticks={x.ticks}
        tickFormatter={x.tickFormatter}
        tick={TICK}
        allowDataOverflow
        label={{ value: x.label, position: "insideBottom", offset: -2, fontSize: 11 }}
        height={X_AXIS_HEIGHT}
      />
      <YAxis
        type="number"
        scale="log"
        domain={y.domain}
        ticks={logTicks(yMin, yMax).filter((t) => t >= yMin && t <= yMax)}
        tickFormatter={y.tickFormatter}
        tick={TICK}
        allowDataOverflow
        width={Y_AXIS_WIDTH}
      />
      <Legend verticalAlign="top" itemSorter={null} wrapperStyle={{ fontSize: 12, paddingBottom: 4 }} />
      {props.lines.map((s) => (
        <Line
          key={s.strategy}
          data={s.points}
          dataKey={y.dataKey}
          name={STRATEGY_STYLE[s.strategy].label}
          type="linear"
          stroke={STRATEGY_STYLE[s.strategy].colour}
          strokeDasharray={STRATEGY_STYLE[s.strategy].dash}
          strokeWidth={2}
          dot={{ r: 3, strokeDasharray: "0" }}
          isAnimationActive={false}
        />
      ))}
      {props.children}
    </LineChart>
  );
}
