import { useMemo, useRef } from "react";
import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";
import type { StepSummary } from "../../io/slimeDump";
import { formatShort } from "../charts/formatNumber";
import { usePlotInOwnTask } from "../charts/usePlotInOwnTask";
import { useWidth } from "../charts/useWidth";

const TICK = { fontSize: 11 };

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
  const data = useMemo(
    (): TrendRow[] =>
      steps.map((s) => Object.fromEntries([["step", s.step], ...TRENDS.map((t) => [t.key, t.value(s)] as const)])),
    [steps],
  );
  return (
    <div className="run-step-charts" ref={ref} data-testid="run-step-charts">
      {TRENDS.map((t) => (
        <TrendChart key={t.key} trend={t} data={data} width={chartWidth} />
      ))}
    </div>
  );
}

type TrendRow = Record<string, number | null>;

/**
 * One trend. As a run is read a step arrives every few hundred ms; each chart draws its new plot
 * in a task of its own (usePlotInOwnTask), so the four charts' redraws are four short tasks, not one
 * long one.
 */
function TrendChart({ trend: t, data, width }: { trend: Trend; data: TrendRow[]; width: number }) {
  const next = useMemo(
    () => (
      <LineChart width={width} height={150} data={data} margin={{ top: 6, right: 12, bottom: 4, left: 4 }}>
        <CartesianGrid stroke="#e5e7eb" />
        {/* interval 0: the few nice ticks are all drawn, so recharts does not measure each label in the
            DOM to thin them out, which was a third of the work of a redraw as each step arrives. */}
        <XAxis
          dataKey="step"
          type="number"
          domain={["dataMin", "dataMax"]}
          ticks={stepTicks(data)}
          tick={TICK}
          allowDecimals={false}
          interval={0}
        />
        <YAxis
          tick={TICK}
          width={56}
          tickFormatter={(v: number) => formatShort(v)}
          domain={["auto", "auto"]}
          interval={0}
        />
        <Tooltip
          formatter={(v) => (typeof v === "number" ? formatShort(v) : String(v))}
          labelFormatter={(l) => `step ${l}`}
        />
        <Line
          dataKey={t.key}
          name={t.title}
          type="linear"
          stroke="#2563eb"
          strokeWidth={2}
          dot={{ r: 2 }}
          isAnimationActive={false}
          connectNulls={false}
        />
      </LineChart>
    ),
    [t, data, width],
  );
  const plot = usePlotInOwnTask(next);
  return (
    <figure className="run-step-chart">
      <figcaption className="small">{t.title}</figcaption>
      {plot ?? <div style={{ width, height: 150 }} />}
    </figure>
  );
}

/**
 * The step axis's ticks: whole steps 1, 2, 2.5 or 5 × 10^k apart, about five over the run, so that, all
 * drawn (interval 0), none crowds another; the last step is not added beside the last tick.
 */
export function stepTicks(data: TrendRow[]): number[] {
  if (data.length === 0) return [];
  const first = data[0].step ?? 0;
  const last = data[data.length - 1].step ?? first;
  const raw = Math.max(1, (last - first) / 5);
  const power = 10 ** Math.floor(Math.log10(raw));
  const gap = [1, 2, 2.5, 5, 10].map((m) => m * power).find((g) => Number.isInteger(g) && g >= raw) ?? 10 * power;
  const ticks: number[] = [];
  for (let t = Math.ceil(first / gap) * gap; t <= last; t += gap) ticks.push(t);
  return ticks;
}
