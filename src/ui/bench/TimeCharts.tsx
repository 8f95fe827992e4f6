import { useRef } from "react";
import { CartesianGrid, Legend, Line, LineChart, XAxis, YAxis } from "recharts";
import { useWidth } from "../charts/useWidth";
import { logTicks, STRATEGY_STYLE, type StrategySeries, type TimePoint, tickMs } from "./benchChartData";

const HEIGHT = 240;
const MARGIN = { top: 12, right: 20, bottom: 4, left: 8 };
const TICK = { fontSize: 11 };

function padded(values: number[]): [number, number] {
  return [Math.min(...values) / 1.6, Math.max(...values) * 1.6];
}

/** One backend's strategies, median time against the batch size, both axes logarithmic. */
function TimeChart({ backend, series }: { backend: string; series: StrategySeries<TimePoint>[] }) {
  const wrap = useRef<HTMLDivElement>(null);
  const width = useWidth(wrap, 360);
  const points = series.flatMap((s) => s.points);
  const sizes = [...new Map(points.map((p) => [p.cells, p.label]))].sort((a, b) => a[0] - b[0]);
  const labels = new Map(sizes);
  const [yMin, yMax] = padded(points.map((p) => p.ms));
  const [xMin, xMax] = padded(sizes.map(([cells]) => cells));
  return (
    <figure className="bench-chart" ref={wrap}>
      <figcaption>
        <strong>{backend}</strong>: median time against size (log–log)
      </figcaption>
      {points.length === 0 ? (
        <p className="muted small">No timed row on {backend} yet.</p>
      ) : (
        <LineChart width={width} height={HEIGHT} margin={MARGIN}>
          <CartesianGrid stroke="#e5e7eb" />
          <XAxis
            dataKey="cells"
            type="number"
            scale="log"
            domain={[xMin, xMax]}
            ticks={sizes.map(([cells]) => cells)}
            tickFormatter={(v: number) => labels.get(v) ?? String(v)}
            tick={TICK}
            allowDataOverflow
            label={{ value: "rows × tokens (log of B·T)", position: "insideBottom", offset: -2, fontSize: 11 }}
            height={36}
          />
          <YAxis
            type="number"
            scale="log"
            domain={[yMin, yMax]}
            ticks={logTicks(yMin, yMax).filter((t) => t >= yMin && t <= yMax)}
            tickFormatter={tickMs}
            tick={TICK}
            allowDataOverflow
            width={72}
          />
          <Legend verticalAlign="top" itemSorter={null} wrapperStyle={{ fontSize: 12, paddingBottom: 4 }} />
          {series.map((s) => (
            <Line
              key={s.strategy}
              data={s.points}
              dataKey="ms"
              name={STRATEGY_STYLE[s.strategy].label}
              type="linear"
              stroke={STRATEGY_STYLE[s.strategy].colour}
              strokeDasharray={STRATEGY_STYLE[s.strategy].dash}
              strokeWidth={2}
              dot={{ r: 3, strokeDasharray: "0" }}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      )}
    </figure>
  );
}

/** One chart per backend; the JS loop on each as the floor. The table below holds every number. */
export function TimeCharts({ charts }: { charts: { backend: string; series: StrategySeries<TimePoint>[] }[] }) {
  return (
    <div className="bench-charts" data-testid="bench-time-charts">
      {charts.map((c) => (
        <TimeChart key={c.backend} backend={c.backend} series={c.series} />
      ))}
    </div>
  );
}
