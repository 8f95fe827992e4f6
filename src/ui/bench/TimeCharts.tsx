import { useRef } from "react";
import { type StrategySeries, type TimePoint, tickMs } from "../../compute/bench/benchChartData";
import { useWidth } from "../charts/useWidth";
import { StrategyLogChart } from "./StrategyLogChart";

const HEIGHT = 240;
const MARGIN = { top: 12, right: 20, bottom: 4, left: 8 };

/** A log axis's domain with room around the values. */
export function padded(values: number[]): [number, number] {
  return [Math.min(...values) / 1.6, Math.max(...values) * 1.6];
}

/** One backend's strategies, median time against the batch size, both axes logarithmic. */
export function TimeChart({ backend, series }: { backend: string; series: StrategySeries<TimePoint>[] }) {
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
        <StrategyLogChart
          width={width}
          height={HEIGHT}
          margin={MARGIN}
          x={{
            dataKey: "cells",
            domain: [xMin, xMax],
            ticks: sizes.map(([cells]) => cells),
            tickFormatter: (v: number) => labels.get(v) ?? String(v),
            label: "rows × tokens (log of B·T)",
          }}
          y={{ dataKey: "ms", domain: [yMin, yMax], tickFormatter: tickMs }}
          lines={series}
        />
      )}
    </figure>
  );
}
