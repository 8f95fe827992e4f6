import { type PointerEvent, type Ref, useImperativeHandle, useMemo, useRef, useState } from "react";
import { CartesianGrid, Line, LineChart, ReferenceArea, ReferenceLine, XAxis, YAxis } from "recharts";
import { ChartLegend, type ChartLegendModel } from "./chartLegend";
import { type ChartHandle, chartPng } from "./chartPng";
import { returnsSeries, tokenAtX, tokenDomain, tokenTicks } from "./chartSeries";
import { chunkOfToken, drawableBoundaries } from "./chunkBoundaries";
import { formatShort, formatValue } from "./formatNumber";
import { BOUNDARY_STROKE, HOVER_STROKE, MASK_FILL, NON_FINITE_FILL, PLOT_LEFT, PLOT_RIGHT, SERIES } from "./plotLayout";
import { maskedSpans, mergeGapFor, spansWhere } from "./spans";
import { useWidth } from "./useWidth";
import "./charts.css";

export type { ChartHandle };

/** Serial float64 against the chunked result for one batch row (returns or advantages). */
export interface ReturnsChartProps {
  /** Heading drawn above the chart, e.g. "Returns, row 2" or "Advantages, row 2". */
  title: string;
  /** Float64 serial reference of one row, valid tokens only. */
  reference: ArrayLike<number>;
  /** The chunked result of the same row (float32 engine, slime-exact, or float64), same length. */
  chunked: ArrayLike<number>;
  /** Legend label of the chunked series, e.g. "chunked float32 (webgpu, two-level)". */
  chunkedLabel: string;
  /** Precision of the chunked values, for the digits of the readout (default float32: 9 digits). */
  chunkedPrecision?: "float32" | "float64";
  /** Token indices (original time) where a chunk starts (chunkStarts); drawn as vertical lines. */
  chunkBoundaries: number[];
  /** Loss mask of the row (0 = masked token, shaded). */
  lossMask?: ArrayLike<number>;
  /** Token highlighted by a shared hover; leave undefined to let the chart track its own pointer. */
  hoverToken?: number | null;
  /** Called with the token under the pointer, or null when the pointer leaves. */
  onHoverToken?(t: number | null): void;
  /** Plot height in CSS pixels (default 220). */
  height?: number;
  /** Receives the chart's handle (PNG export). */
  ref?: Ref<ChartHandle>;
}

const MARGIN = { top: 8, right: PLOT_RIGHT, bottom: 0, left: 0 };

export function ReturnsChart(props: ReturnsChartProps) {
  const { reference, chunked, chunkBoundaries, lossMask, onHoverToken, chunkedLabel } = props;
  const wrapRef = useRef<HTMLDivElement>(null);
  const width = useWidth(wrapRef);
  const plotWidth = Math.max(1, width - PLOT_LEFT - PLOT_RIGHT);
  const [ownHover, setOwnHover] = useState<number | null>(null);
  const hover = props.hoverToken !== undefined ? props.hoverToken : ownHover;

  const series = useMemo(() => returnsSeries(reference, chunked, plotWidth), [reference, chunked, plotWidth]);
  const { length } = series;
  const boundaries = useMemo(
    () => drawableBoundaries(chunkBoundaries, length, plotWidth),
    [chunkBoundaries, length, plotWidth],
  );
  const gap = mergeGapFor(length, plotWidth);
  const masked = useMemo(() => maskedSpans(lossMask, length, gap), [lossMask, length, gap]);
  const broken = useMemo(
    () => spansWhere((t) => !Number.isFinite(reference[t]) || !Number.isFinite(chunked[t]), length, gap),
    [reference, chunked, length, gap],
  );

  const legend: ChartLegendModel = {
    title: props.title,
    entries: [
      { label: "serial float64 (reference)", colour: SERIES.reference.colour, width: SERIES.reference.width },
      { label: chunkedLabel, colour: SERIES.chunked.colour, dash: SERIES.chunked.dash, width: SERIES.chunked.width },
      ...(boundaries.lines.length ? [{ label: "chunk boundary", colour: BOUNDARY_STROKE, width: 1 }] : []),
      ...(masked.length ? [{ label: "masked tokens", colour: MASK_FILL, width: 0 }] : []),
      ...(broken.length ? [{ label: "NaN / ∞ (gap)", colour: NON_FINITE_FILL, width: 0 }] : []),
    ],
    notes: [
      ...(series.points.length < length
        ? [`${series.points.length} of ${length} tokens drawn: each pixel's minimum and maximum`]
        : []),
      ...(boundaries.tooDense ? ["chunks too narrow to draw their boundaries at this width"] : []),
      ...(series.nonFinite ? [`${series.nonFinite} tokens NaN or infinite: gaps`] : []),
    ],
  };
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
  const precision = props.chunkedPrecision ?? "float32";
  return (
    <figure className="scan-chart returns-chart">
      <figcaption>
        <span className="scan-chart-title">{props.title}</span>
        <output className="scan-chart-readout" aria-live="polite">
          {shown === null ? (
            "hover for values"
          ) : (
            <>
              t {shown} · chunk {chunkOfToken(chunkBoundaries, shown)} · serial{" "}
              {formatValue(reference[shown], "float64")} · chunked {formatValue(chunked[shown], precision)} · Δ{" "}
              {formatShort(chunked[shown] - reference[shown])}
              {lossMask?.[shown] === 0 ? " · masked" : ""}
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
        <LineChart width={width} height={props.height ?? 220} data={series.points} margin={MARGIN}>
          <CartesianGrid vertical={false} stroke="#e5e7eb" />
          <XAxis
            dataKey="t"
            type="number"
            domain={tokenDomain(length)}
            ticks={tokenTicks(length, plotWidth)}
            allowDataOverflow
            tick={{ fontSize: 11 }}
          />
          <YAxis width={PLOT_LEFT} tickFormatter={formatShort} domain={["auto", "auto"]} tick={{ fontSize: 11 }} />
          {masked.map(([start, end]) => (
            <ReferenceArea key={`m${start}`} x1={start - 0.5} x2={end - 0.5} fill={MASK_FILL} fillOpacity={0.15} />
          ))}
          {broken.map(([start, end]) => (
            <ReferenceArea key={`n${start}`} x1={start - 0.5} x2={end - 0.5} fill={NON_FINITE_FILL} fillOpacity={0.2} />
          ))}
          {boundaries.lines.map((t) => (
            <ReferenceLine key={t} x={t - 0.5} stroke={BOUNDARY_STROKE} strokeWidth={1} />
          ))}
          <Line
            name="serial float64"
            dataKey="reference"
            type="linear"
            dot={false}
            activeDot={false}
            isAnimationActive={false}
            stroke={SERIES.reference.colour}
            strokeWidth={SERIES.reference.width}
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
          {shown !== null && <ReferenceLine x={shown} stroke={HOVER_STROKE} strokeWidth={1} />}
        </LineChart>
      </div>
      <ChartLegend model={legend} />
    </figure>
  );
}
