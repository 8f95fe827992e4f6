import { useMemo } from "react";
import { decadeLabel } from "../../compute/heatmap/colourScale";
import { PX_PER_BUCKET } from "../../compute/playground/downsample";
import { mergeGapFor, spansWhere } from "../../compute/playground/spans";
import { formatShort } from "../../io/formatNumber";
import { ChartFrame, plotOf, type TokenChartProps, useChartBox } from "./ChartFrame";
import type { ChartLegendModel, LegendEntry } from "./chartLegend";
import { downsampleNotes, errorSeries } from "./chartSeries";
import { chunkOfToken, drawableBoundaries } from "./chunkBoundaries";
import { BOUNDARY_STROKE, NON_FINITE_FILL, SERIES } from "./plotLayout";
import { TokenPlot, useTellDrawn } from "./TokenPlot";

/** Error by token of one row against the float64 serial reference, on a log y axis. */
export interface ErrorChartProps extends TokenChartProps {
  /** |chunked − float64 serial| per token of the row. */
  chunkedError: ArrayLike<number>;
  /** |serial float32 loop − float64 serial| per token: whether chunking made float32 worse or better. */
  serialError: ArrayLike<number>;
  /** Per-token error bound (the verdict rule), drawn as a line. */
  bound?: ArrayLike<number>;
  /** Token indices (original time) where a chunk starts (chunkStarts). */
  chunkBoundaries: number[];
  /** Heading (default "Error against serial float64, by token"). */
  title?: string;
  /** Legend label of the chunked error (default "chunked float32 − serial float64"). */
  chunkedLabel?: string;
  /** Legend label of the serial loop's error (default "serial float32 loop − serial float64"). */
  serialLabel?: string;
  /** Told, once its lines are on screen, each plot of the current data (by its `chunkedError`, the very array of the props). */
  onDrawn?(chunkedError: ArrayLike<number>): void;
}

export function ErrorChart(props: ErrorChartProps) {
  const { chunkedError, serialError, bound, chunkBoundaries } = props;
  const title = props.title ?? "Error against serial float64, by token";
  const chunkedLabel = props.chunkedLabel ?? "chunked float32 − serial float64";
  const serialLabel = props.serialLabel ?? "serial float32 loop − serial float64";
  const box = useChartBox(props.height ?? 160);
  const { width, height, plotWidth } = box;

  const series = useMemo(
    () => errorSeries(chunkedError, serialError, bound, plotWidth / PX_PER_BUCKET),
    [chunkedError, serialError, bound, plotWidth],
  );
  const { length } = series;
  const boundaries = useMemo(
    () => drawableBoundaries(chunkBoundaries, length, plotWidth),
    [chunkBoundaries, length, plotWidth],
  );
  const gap = mergeGapFor(length, plotWidth);
  const shades = useMemo(() => {
    const bad = new Set(series.nonFiniteTokens);
    return [{ spans: spansWhere((t) => bad.has(t), length, gap), fill: NON_FINITE_FILL, opacity: 0.2 }];
  }, [series, length, gap]);

  const hasBound = bound !== undefined;
  const drawing = useMemo(
    () => (
      <TokenPlot
        width={width}
        height={height}
        length={length}
        value={{ domain: [series.floor, series.top], ticks: series.ticks, tickFormatter: decadeLabel }}
        shades={shades}
        boundaries={boundaries}
        lines={[
          { name: "serial loop", points: series.serial, style: SERIES.serialLoop },
          { name: "chunked", points: series.chunked, style: SERIES.chunked },
          ...(series.bound ? [{ name: "bound", points: series.bound, style: SERIES.bound }] : []),
        ]}
      />
    ),
    [series, width, height, length, shades, boundaries],
  );
  const plot = plotOf(box, drawing);
  useTellDrawn(chunkedError, plot, props.onDrawn);

  const entries: LegendEntry[] = [
    { label: chunkedLabel, colour: SERIES.chunked.colour, dash: SERIES.chunked.dash, width: SERIES.chunked.width },
    { label: serialLabel, colour: SERIES.serialLoop.colour, dash: SERIES.serialLoop.dash, width: 2 },
  ];
  if (hasBound) entries.push({ label: "bound", colour: SERIES.bound.colour, dash: SERIES.bound.dash, width: 1 });
  if (boundaries.lines.length) entries.push({ label: "chunk boundary", colour: BOUNDARY_STROKE, width: 1 });
  if (shades[0].spans.length) entries.push({ label: "NaN / ∞ error", colour: NON_FINITE_FILL, width: 0 });
  const legend: ChartLegendModel = { title, entries, notes: errorNotes(series, length, boundaries.tooDense) };

  return (
    <ChartFrame
      className="error-chart"
      legend={legend}
      box={box}
      chart={props}
      length={length}
      plot={plot}
      readout={(t) => (
        <>
          t {t} · chunk {chunkOfToken(chunkBoundaries, t)} · chunked {formatShort(chunkedError[t])} · serial loop{" "}
          {formatShort(serialError[t])}
          {bound ? ` · bound ${formatShort(bound[t])}` : ""}
        </>
      )}
    />
  );
}

/** The legend's notes: what the log axis could not show as it is, and what was downsampled. */
function errorNotes(series: ReturnType<typeof errorSeries>, length: number, tooDense: boolean): string[] {
  const notes: string[] = [];
  const { zeros } = series;
  if (zeros.chunked || zeros.serial || series.belowFloor) {
    const parts = [];
    if (zeros.chunked) parts.push(`${zeros.chunked} chunked`);
    if (zeros.serial) parts.push(`${zeros.serial} serial-loop`);
    const what = parts.length ? `exact zeros (${parts.join(", ")})` : "";
    const below = series.belowFloor ? `${series.belowFloor} tokens below it` : "";
    notes.push(`log axis: ${[what, below].filter(Boolean).join(" and ")} drawn at ${decadeLabel(series.floor)}`);
  }
  notes.push(...downsampleNotes([series.chunked, series.serial, ...(series.bound ? [series.bound] : [])], length));
  if (tooDense) notes.push("chunks too narrow to draw their boundaries at this width");
  if (series.nonFiniteTokens.length) notes.push(`${series.nonFiniteTokens.length} tokens with NaN or infinite error`);
  return notes;
}
