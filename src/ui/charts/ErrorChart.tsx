import { type PointerEvent, type Ref, useImperativeHandle, useMemo, useRef, useState } from "react";
import { CartesianGrid, Line, LineChart, ReferenceArea, ReferenceLine, XAxis, YAxis } from "recharts";
import { decadeLabel } from "../heatmap/colourScale";
import { ChartLegend, type ChartLegendModel, type LegendEntry } from "./chartLegend";
import { type ChartHandle, chartPng } from "./chartPng";
import { errorSeries, tokenAtX, tokenDomain, tokenTicks } from "./chartSeries";
import { chunkOfToken, drawableBoundaries } from "./chunkBoundaries";
import { formatShort } from "./formatNumber";
import { BOUNDARY_STROKE, HOVER_STROKE, NON_FINITE_FILL, PLOT_LEFT, PLOT_RIGHT, SERIES } from "./plotLayout";
import { mergeGapFor, spansWhere } from "./spans";
import { useWidth } from "./useWidth";
import "./charts.css";

/** Error by token of one row against the float64 serial reference, on a log y axis. */
export interface ErrorChartProps {
  /** |chunked − float64 serial| per token of the row. */
  chunkedError: ArrayLike<number>;
  /** |serial float32 loop − float64 serial| per token: whether chunking made float32 worse or better. */
  serialError: ArrayLike<number>;
  /** Per-token error bound (the verdict rule), drawn as a line. */
  bound?: ArrayLike<number>;
  /** Token indices (original time) where a chunk starts (chunkStarts). */
  chunkBoundaries: number[];
  /** Token highlighted by a shared hover; leave undefined to let the chart track its own pointer. */
  hoverToken?: number | null;
  /** Called with the token under the pointer, or null when the pointer leaves. */
  onHoverToken?(t: number | null): void;
  /** Heading (default "Error against serial float64, by token"). */
  title?: string;
  /** Legend label of the chunked error (default "chunked float32 − serial float64"). */
  chunkedLabel?: string;
  /** Legend label of the serial loop's error (default "serial float32 loop − serial float64"). */
  serialLabel?: string;
  /** Plot height in CSS pixels (default 160). */
  height?: number;
  /** Receives the chart's handle (PNG export). */
  ref?: Ref<ChartHandle>;
}

const MARGIN = { top: 8, right: PLOT_RIGHT, bottom: 0, left: 0 };

export function ErrorChart(props: ErrorChartProps) {
  const { chunkedError, serialError, bound, chunkBoundaries, onHoverToken } = props;
  const title = props.title ?? "Error against serial float64, by token";
  const chunkedLabel = props.chunkedLabel ?? "chunked float32 − serial float64";
  const serialLabel = props.serialLabel ?? "serial float32 loop − serial float64";
  const wrapRef = useRef<HTMLDivElement>(null);
  const width = useWidth(wrapRef);
  const plotWidth = Math.max(1, width - PLOT_LEFT - PLOT_RIGHT);
  const [ownHover, setOwnHover] = useState<number | null>(null);
  const hover = props.hoverToken !== undefined ? props.hoverToken : ownHover;

  const series = useMemo(
    () => errorSeries(chunkedError, serialError, bound, plotWidth),
    [chunkedError, serialError, bound, plotWidth],
  );
  const { length } = series;
  const boundaries = useMemo(
    () => drawableBoundaries(chunkBoundaries, length, plotWidth),
    [chunkBoundaries, length, plotWidth],
  );
  const gap = mergeGapFor(length, plotWidth);
  const broken = useMemo(() => {
    const bad = new Set(series.nonFiniteTokens);
    return spansWhere((t) => bad.has(t), length, gap);
  }, [series, length, gap]);

  const entries: LegendEntry[] = [
    { label: chunkedLabel, colour: SERIES.chunked.colour, dash: SERIES.chunked.dash, width: SERIES.chunked.width },
    { label: serialLabel, colour: SERIES.serialLoop.colour, dash: SERIES.serialLoop.dash, width: 2 },
  ];
  if (bound) entries.push({ label: "tolerance", colour: SERIES.bound.colour, dash: SERIES.bound.dash, width: 1 });
  if (boundaries.lines.length) entries.push({ label: "chunk boundary", colour: BOUNDARY_STROKE, width: 1 });
  if (broken.length) entries.push({ label: "NaN / ∞ error", colour: NON_FINITE_FILL, width: 0 });
  const { zeros } = series;
  const notes: string[] = [];
  if (zeros.chunked || zeros.serial || series.belowFloor) {
    const parts = [];
    if (zeros.chunked) parts.push(`${zeros.chunked} chunked`);
    if (zeros.serial) parts.push(`${zeros.serial} serial-loop`);
    const what = parts.length ? `exact zeros (${parts.join(", ")})` : "";
    const below = series.belowFloor ? `${series.belowFloor} tokens below it` : "";
    notes.push(`log axis: ${[what, below].filter(Boolean).join(" and ")} drawn at ${decadeLabel(series.floor)}`);
  }
  if (series.points.length < length) {
    notes.push(`${series.points.length} of ${length} tokens drawn: each pixel's minimum and maximum`);
  }
  if (boundaries.tooDense) notes.push("chunks too narrow to draw their boundaries at this width");
  if (series.nonFiniteTokens.length) notes.push(`${series.nonFiniteTokens.length} tokens with NaN or infinite error`);
  const legend: ChartLegendModel = { title, entries, notes };
  const legendRef = useRef(legend);
  legendRef.current = legend;
  useImperativeHandle(
    props.ref,
    () => ({
      toPng: () => {
        const svg = wrapRef.current?.querySelector<SVGSVGElement>("svg.recharts-surface");
        if (!svg) return Promise.reject(new Error("the chart is not on screen"));
        return chartPng(svg, legendRef.current);
      },
    }),
    [],
  );

  const setHover = (t: number | null) => {
    setOwnHover(t);
    onHoverToken?.(t);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const x = e.clientX - e.currentTarget.getBoundingClientRect().left;
    setHover(tokenAtX(x, PLOT_LEFT, width - PLOT_RIGHT, length));
  };

  const shown = hover !== null && hover >= 0 && hover < length ? hover : null;
  return (
    <figure className="scan-chart error-chart">
      <figcaption>
        <span className="scan-chart-title">{title}</span>
        <output className="scan-chart-readout" aria-live="polite">
          {shown === null ? (
            "hover for values"
          ) : (
            <>
              t {shown} · chunk {chunkOfToken(chunkBoundaries, shown)} · chunked {formatShort(chunkedError[shown])} ·
              serial loop {formatShort(serialError[shown])}
              {bound ? ` · tolerance ${formatShort(bound[shown])}` : ""}
            </>
          )}
        </output>
      </figcaption>
      <div
        ref={wrapRef}
        className="scan-chart-plot"
        onPointerMove={onPointerMove}
        onPointerLeave={() => setHover(null)}
      >
        <LineChart width={width} height={props.height ?? 160} data={series.points} margin={MARGIN}>
          <CartesianGrid vertical={false} stroke="#e5e7eb" />
          <XAxis
            dataKey="t"
            type="number"
            domain={tokenDomain(length)}
            ticks={tokenTicks(length, plotWidth)}
            allowDataOverflow
            tick={{ fontSize: 11 }}
          />
          <YAxis
            width={PLOT_LEFT}
            type="number"
            domain={[series.floor, series.top]}
            ticks={series.ticks}
            tickFormatter={decadeLabel}
            allowDataOverflow
            tick={{ fontSize: 11 }}
          />
          {broken.map(([start, end]) => (
            <ReferenceArea key={`n${start}`} x1={start - 0.5} x2={end - 0.5} fill={NON_FINITE_FILL} fillOpacity={0.2} />
          ))}
          {boundaries.lines.map((t) => (
            <ReferenceLine key={t} x={t - 0.5} stroke={BOUNDARY_STROKE} strokeWidth={1} />
          ))}
          <Line
            name={serialLabel}
            dataKey="serial"
            type="linear"
            dot={false}
            activeDot={false}
            isAnimationActive={false}
            stroke={SERIES.serialLoop.colour}
            strokeWidth={SERIES.serialLoop.width}
            strokeDasharray={SERIES.serialLoop.dash}
          />
          <Line
            name={chunkedLabel}
            dataKey="chunked"
            type="linear"
            dot={false}
            activeDot={false}
            isAnimationActive={false}
            stroke={SERIES.chunked.colour}
            strokeWidth={SERIES.chunked.width}
            strokeDasharray={SERIES.chunked.dash}
          />
          {bound && (
            <Line
              name="tolerance"
              dataKey="bound"
              type="linear"
              dot={false}
              activeDot={false}
              isAnimationActive={false}
              stroke={SERIES.bound.colour}
              strokeWidth={SERIES.bound.width}
              strokeDasharray={SERIES.bound.dash}
            />
          )}
          {shown !== null && <ReferenceLine x={shown} stroke={HOVER_STROKE} strokeWidth={1} />}
        </LineChart>
      </div>
      <ChartLegend model={legend} />
    </figure>
  );
}
