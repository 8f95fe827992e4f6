import { useRef } from "react";
import { ReferenceDot } from "recharts";
import { STRATEGY_STYLE, type StrategySeries, type SweepPoint, tickMs } from "../../compute/bench/benchChartData";
import { formatError, formatMs } from "../../compute/bench/benchFormat";
import { useWidth } from "../charts/useWidth";
import { bestLabels } from "./bestLabels";
import { PLOT_INSET, StrategyLogChart } from "./StrategyLogChart";
import { padded } from "./TimeCharts";

type Series = StrategySeries<SweepPoint> & { best?: SweepPoint };

const HEIGHT = 220;
const RING_RADIUS = 8;
const MARGIN = { top: 16, right: 32, bottom: 4, left: 8 };

function SweepPlot(props: { series: Series[]; value: "ms" | "error"; chunks: number[]; width: number }) {
  const { series, value, chunks, width } = props;
  const values = series.flatMap((s) => s.points.map((p) => p[value])).filter((v) => v > 0);
  if (values.length === 0) return <p className="muted small">Nothing to plot.</p>;
  const [yMin, yMax] = padded(values);
  const xDomain: [number, number] = [chunks[0] / 1.3, chunks[chunks.length - 1] * 1.3];
  const format = value === "ms" ? tickMs : (v: number) => formatError(v);
  const labels = bestLabels(
    series.flatMap((s) =>
      s.best ? [{ strategy: s.strategy, chunkSize: s.best.chunkSize, value: s.best[value] }] : [],
    ),
    {
      x: xDomain,
      y: [yMin, yMax],
      width: width - MARGIN.left - MARGIN.right - PLOT_INSET.left,
      height: HEIGHT - MARGIN.top - MARGIN.bottom - PLOT_INSET.top - PLOT_INSET.bottom,
      above: MARGIN.top,
      below: MARGIN.bottom + PLOT_INSET.bottom,
    },
  );
  return (
    <StrategyLogChart
      width={width}
      height={HEIGHT}
      margin={MARGIN}
      x={{
        dataKey: "chunkSize",
        domain: xDomain,
        ticks: chunks,
        label: "chunk size C (log)",
      }}
      y={{ dataKey: value, domain: [yMin, yMax], tickFormatter: format }}
      lines={series.map((s) => ({ strategy: s.strategy, points: s.points.filter((p) => p[value] > 0) }))}
    >
      {series.map((s) => {
        if (!s.best || !(s.best[value] > 0)) return null;
        // Strategies that chose the same C share one label, hung on the highest of their rings.
        const label = labels.find((l) => l.anchor === s.strategy && l.chunkSize === s.best?.chunkSize);
        return (
          <ReferenceDot
            key={`best-${s.strategy}`}
            x={s.best.chunkSize}
            y={s.best[value]}
            r={RING_RADIUS}
            fill="none"
            stroke={STRATEGY_STYLE[s.strategy].colour}
            strokeWidth={2}
            label={
              label
                ? { value: label.text, position: label.position, offset: label.offset - RING_RADIUS, fontSize: 11 }
                : undefined
            }
          />
        );
      })}
    </StrategyLogChart>
  );
}

/** The chunk-size trade-off on one backend: time and max float32 error against C, the best C ringed. */
export function SweepChart({ backend, size, series }: { backend: string; size: string; series: Series[] }) {
  const plots = useRef<HTMLDivElement>(null);
  const width = useWidth(plots, 640);
  const chunks = [...new Set(series.flatMap((s) => s.points.map((p) => p.chunkSize)))].sort((a, b) => a - b);
  // Side by side when there is room for two plots of 320 px, stacked below that.
  const half = width >= 656 ? Math.floor((width - 16) / 2) : width;
  return (
    <figure className="bench-chart bench-sweep">
      <figcaption>
        <strong>{backend}</strong>, chunk-size sweep at {size}. Best C (fastest correct):{" "}
        {series.map((s, i) => (
          <span key={s.strategy}>
            {i > 0 ? "; " : ""}
            {STRATEGY_STYLE[s.strategy].label}{" "}
            {s.best ? (
              <strong data-testid="bench-best-chunk">
                C = {s.best.chunkSize} ({formatMs(s.best.ms)})
              </strong>
            ) : (
              "none"
            )}
          </span>
        ))}
      </figcaption>
      {chunks.length === 0 ? null : (
        <div className="bench-sweep-plots" ref={plots}>
          <div>
            <p className="small plot-title">Median time</p>
            <SweepPlot series={series} value="ms" chunks={chunks} width={half} />
          </div>
          <div>
            <p className="small plot-title">Max abs error against float64</p>
            <SweepPlot series={series} value="error" chunks={chunks} width={half} />
          </div>
        </div>
      )}
    </figure>
  );
}
