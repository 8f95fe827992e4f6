import { type BenchStrategy, JS_LOOP, NO_BACKEND, sizeLabel } from "./benchPlan";
import type { BenchRow } from "./benchResult";
import { validMedian } from "./benchStats";
import { sweepGroups } from "./bestChunk";

/** Okabe–Ito colours (colour-blind safe), each with its own dash and marker so no line relies on colour. */
export const STRATEGY_STYLE: Record<BenchStrategy, { colour: string; dash?: string; label: string }> = {
  "per-token": { colour: "#E69F00", dash: "2 3", label: "per-token" },
  chunked: { colour: "#D55E00", dash: "6 3", label: "chunked" },
  "two-level": { colour: "#0072B2", label: "two-level" },
  fused: { colour: "#009E73", dash: "10 3 2 3", label: "fused" },
  [JS_LOOP]: { colour: "#000000", dash: "1 3", label: "plain JS loop" },
};

export interface TimePoint {
  /** Values in the batch, B·T: the x axis (log). */
  cells: number;
  label: string;
  ms: number;
}

export interface StrategySeries<P> {
  strategy: BenchStrategy;
  points: P[];
}

/**
 * One time chart per backend: each strategy's median against the batch size, with the plain JS loop
 * (measured once per size) drawn on every backend's chart as the floor. Only timed rows whose runs
 * were all within their error bounds are plotted; the table says why any other row has no point.
 */
export function timeCharts(rows: readonly BenchRow[]): { backend: string; series: StrategySeries<TimePoint>[] }[] {
  const main = rows.filter((r) => !r.sweep);
  const seriesOf = (list: BenchRow[]) => {
    const byStrategy = new Map<BenchStrategy, TimePoint[]>();
    for (const r of list) {
      const ms = validMedian(r);
      if (ms === undefined || !(ms > 0)) continue;
      const points = byStrategy.get(r.strategy) ?? [];
      points.push({ cells: r.size.rows * r.size.cols, label: sizeLabel(r.size), ms });
      byStrategy.set(r.strategy, points);
    }
    return [...byStrategy].map(([strategy, points]) => ({
      strategy,
      points: points.sort((a, b) => a.cells - b.cells),
    }));
  };
  const loop = seriesOf(main.filter((r) => r.backend === NO_BACKEND));
  const backends = [...new Set(main.map((r) => r.backend).filter((b) => b !== NO_BACKEND))];
  return backends.map((backend) => ({
    backend,
    series: [...seriesOf(main.filter((r) => r.backend === backend)), ...loop],
  }));
}

export interface SweepPoint {
  chunkSize: number;
  ms: number;
  error: number;
}

/** One sweep chart per backend: time and max error against C per strategy, and each strategy's best C. */
export function sweepCharts(
  rows: readonly BenchRow[],
): { backend: string; size: string; series: (StrategySeries<SweepPoint> & { best?: SweepPoint })[] }[] {
  const out = new Map<
    string,
    { backend: string; size: string; series: (StrategySeries<SweepPoint> & { best?: SweepPoint })[] }
  >();
  for (const g of sweepGroups(rows)) {
    const first = g.points[0];
    const chart = out.get(first.backend) ?? { backend: first.backend, size: sizeLabel(first.size), series: [] };
    const points: SweepPoint[] = [];
    let best: SweepPoint | undefined;
    for (const p of g.points) {
      const ms = validMedian(p);
      if (ms === undefined || p.maxAbsError === undefined) continue;
      const point = { chunkSize: p.chunkSize, ms, error: p.maxAbsError };
      points.push(point);
      if (p === g.best) best = point;
    }
    chart.series.push({ strategy: first.strategy, points, ...(best ? { best } : {}) });
    out.set(first.backend, chart);
  }
  return [...out.values()];
}

/** Round ticks for a log axis covering [min, max]: the powers of ten, and 1-2-5 steps over two decades or fewer. */
export function logTicks(min: number, max: number): number[] {
  if (!(min > 0) || !(max >= min)) return [];
  const lo = Math.floor(Math.log10(min));
  const hi = Math.ceil(Math.log10(max));
  const decades: number[] = [];
  for (let e = lo; e <= hi; e++) decades.push(10 ** e);
  if (decades.length >= 4) return decades;
  return decades.flatMap((d) => [d, 2 * d, 5 * d]).filter((t) => t <= 10 ** hi);
}

/** A log axis tick in ms: its round value as it is (0.01 ms, 2 ms, 1000 ms). */
export function tickMs(v: number): string {
  return `${Number(v.toPrecision(3))} ms`;
}
