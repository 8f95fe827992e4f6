import { memo, useRef } from "react";
import { formatShort } from "../../io/formatNumber";
import type { StepSummary } from "../../io/slimeDump";
import { valueAxisOf } from "../charts/chartSeries";
import { TokenPlot } from "../charts/TokenPlot";
import { useWidth } from "../charts/useWidth";

interface Trend {
  key: string;
  title: string;
  value(s: StepSummary): number | null;
}

const TRENDS: Trend[] = [
  { key: "reward", title: "reward mean", value: (s) => s.reward?.mean ?? null },
  { key: "kl", title: "KL mean", value: (s) => s.klMean },
  {
    key: "worst",
    title: "worst gap / bound",
    value: (s) => {
      const shares = [s.worst.advantages?.share, s.worst.returns?.share].filter(
        (x): x is number => x !== undefined && Number.isFinite(x),
      );
      return shares.length > 0 ? Math.max(...shares) : null;
    },
  },
  { key: "length", title: "response length mean", value: (s) => (s.samples > 0 ? s.length.mean : null) },
];

/** Small line charts of a run's trends over the rollout id: one point per step read so far; a gap where a step has none. */
export function RunStepCharts({ steps }: { steps: readonly StepSummary[] }) {
  const ref = useRef<HTMLDivElement>(null);
  const width = useWidth(ref, 600);
  // Two charts a row where they fit, one on a phone.
  const chartWidth = width >= 560 ? Math.floor((width - 12) / 2) : width;
  return (
    <div className="run-step-charts" ref={ref} data-testid="run-step-charts">
      {TRENDS.map((t) => (
        <TrendChart key={t.key} trend={t} steps={steps} width={chartWidth} />
      ))}
    </div>
  );
}

const HEIGHT = 150;

/**
 * One trend, drawn by the token charts' SVG plot with the steps for its x axis: as a run is read a
 * step arrives every few hundred ms, and a redraw of a few dozen points is a fraction of a
 * millisecond (recharts, here before, took 20–40 ms a chart a step on the main thread).
 */
const TrendChart = memo(function TrendChart({
  trend: t,
  steps,
  width,
}: {
  trend: Trend;
  steps: readonly StepSummary[];
  width: number;
}) {
  const points = steps.map((s) => ({ t: s.step, v: t.value(s) }));
  const first = points[0]?.t ?? 0;
  const last = points[points.length - 1]?.t ?? first;
  return (
    <figure className="run-step-chart">
      <figcaption className="small">{t.title}</figcaption>
      <TokenPlot
        width={width}
        height={HEIGHT}
        length={points.length}
        value={valueAxisOf([points], HEIGHT)}
        xAxis={{ domain: first === last ? [first - 0.5, last + 0.5] : [first, last], ticks: stepTicks(points) }}
        lines={[{ name: t.title, points, style: { colour: "#2563eb", width: 2 } }]}
        under={(x, y) =>
          points.map((p) =>
            p.v === null ? null : (
              <circle key={p.t} cx={x(p.t)} cy={y(p.v)} r={2.5} fill="#2563eb">
                <title>{`step ${p.t}: ${formatShort(p.v)}`}</title>
              </circle>
            ),
          )
        }
      />
    </figure>
  );
});

/**
 * The step axis's ticks: whole steps 1, 2, 2.5 or 5 × 10^k apart, about five over the run, so that, all
 * drawn (interval 0), none crowds another; the last step is not added beside the last tick.
 */
export function stepTicks(points: readonly { t: number }[]): number[] {
  if (points.length === 0) return [];
  const first = points[0].t;
  const last = points[points.length - 1].t;
  const raw = Math.max(1, (last - first) / 5);
  const power = 10 ** Math.floor(Math.log10(raw));
  const gap = [1, 2, 2.5, 5, 10].map((m) => m * power).find((g) => Number.isInteger(g) && g >= raw) ?? 10 * power;
  const ticks: number[] = [];
  for (let t = Math.ceil(first / gap) * gap; t <= last; t += gap) ticks.push(t);
  return ticks;
}
