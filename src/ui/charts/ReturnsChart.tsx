import { useMemo } from "react";
import { PX_PER_BUCKET } from "../../compute/playground/downsample";
import { maskedSpans, mergeGapFor, spansWhere } from "../../compute/playground/spans";
import { formatExact64, formatShort, formatValue } from "../../io/formatNumber";
import { CARRY_STYLE, CarryBands, type CarryParts, carryRuns, carryStride } from "./CarryBands";
import { ChartFrame, plotOf, type TokenChartProps, useChartBox } from "./ChartFrame";
import type { ChartLegendModel } from "./chartLegend";
import { downsampleNotes, linePoints, returnsSeries, valueAxisOf } from "./chartSeries";
import { chunkOfToken, drawableBoundaries } from "./chunkBoundaries";
import { BOUNDARY_STROKE, MASK_FILL, NON_FINITE_FILL, SERIES } from "./plotLayout";
import { TokenPlot, useTellDrawn } from "./TokenPlot";

/** Serial float64 against the chunked result for one batch row (returns or advantages). */
export interface ReturnsChartProps extends TokenChartProps {
  /** Heading drawn above the chart, e.g. "Returns, row 2" or "Advantages, row 2". */
  title: string;
  /** Float64 serial reference of one row, valid tokens only. */
  reference: ArrayLike<number>;
  /**
   * The chunked result of the same row (float32 engine, slime-exact, or float64), same length; null
   * draws the reference alone (the run view's stored KL where nothing recomputed it).
   */
  chunked: ArrayLike<number> | null;
  /** Legend label of the chunked series, e.g. "chunked float32 (webgpu, two-level)". */
  chunkedLabel: string;
  /** Legend label of the reference (default "serial float64 (reference)"). */
  referenceLabel?: string;
  /**
   * A third line of the same row from elsewhere, e.g. what a slime dump stored for it ("stored in the
   * dump"): drawn dotted over the other two, in the legend and the readout under its own label.
   */
  stored?: { values: ArrayLike<number>; label: string; short: string } | null;
  /** Precision of the chunked values, for the digits of the readout (default float32: 9 digits). */
  chunkedPrecision?: "float32" | "float64";
  /** Token indices (original time) where a chunk starts (chunkStarts); drawn as vertical lines. */
  chunkBoundaries: number[];
  /** Loss mask of the row (0 = masked token, shaded). */
  lossMask?: ArrayLike<number>;
  /** Told, once its lines are on screen, each plot of the current data (by its `reference`, the very array of the props). */
  onDrawn?(reference: ArrayLike<number>): void;
  /**
   * The row split into each chunk's local sum and the part carried in from later chunks (same
   * length as `reference`): drawn as a local line per chunk and a band from it to the total, and
   * read out per token. Null or absent: no carries.
   */
  carries?: CarryParts | null;
}

export function ReturnsChart(props: ReturnsChartProps) {
  const { reference, chunkBoundaries, lossMask, chunkedLabel, stored } = props;
  const carries = props.carries && props.carries.total.length === reference.length ? props.carries : null;
  const single = props.chunked === null;
  const chunked = props.chunked ?? reference;
  const referenceLabel = props.referenceLabel ?? "serial float64 (reference)";
  const box = useChartBox(props.height ?? 220);
  const { width, height, plotWidth } = box;

  const series = useMemo(
    () => returnsSeries(reference, chunked, plotWidth / PX_PER_BUCKET),
    [reference, chunked, plotWidth],
  );
  const storedValues = stored?.values;
  const storedPoints = useMemo(
    () =>
      storedValues && storedValues.length === series.length
        ? linePoints(storedValues, series.length, plotWidth / PX_PER_BUCKET)
        : null,
    [storedValues, series.length, plotWidth],
  );
  const { length } = series;
  const carryStep = carryStride(length, plotWidth / PX_PER_BUCKET);
  const carryDrawing = useMemo(
    () =>
      carries
        ? {
            runs: carryRuns(carries, length, carryStep),
            // The local sums may reach past the returns: the value axis spans them too.
            axis: carries.localRange ? carries.localRange.map((v) => ({ t: 0, v })) : [],
          }
        : null,
    [carries, length, carryStep],
  );
  const boundaries = useMemo(
    () => drawableBoundaries(chunkBoundaries, length, plotWidth),
    [chunkBoundaries, length, plotWidth],
  );
  const gap = mergeGapFor(length, plotWidth);
  const shades = useMemo(
    () => [
      { spans: maskedSpans(lossMask, length, gap), fill: MASK_FILL, opacity: 0.14 },
      {
        spans: spansWhere((t) => !Number.isFinite(reference[t]) || !Number.isFinite(chunked[t]), length, gap),
        fill: NON_FINITE_FILL,
        opacity: 0.2,
      },
    ],
    [lossMask, reference, chunked, length, gap],
  );

  const valueAxis = useMemo(
    () =>
      valueAxisOf(
        [
          series.reference,
          series.chunked,
          ...(storedPoints ? [storedPoints] : []),
          ...(carryDrawing ? [carryDrawing.axis] : []),
        ],
        height,
      ),
    [series, storedPoints, carryDrawing, height],
  );
  const drawing = useMemo(
    () => (
      <TokenPlot
        width={width}
        height={height}
        length={length}
        value={valueAxis}
        shades={shades}
        boundaries={boundaries}
        under={
          carries && carryDrawing
            ? (x, y) => <CarryBands parts={carries} runs={carryDrawing.runs} x={x} y={y} />
            : undefined
        }
        lines={[
          { name: "serial float64", points: series.reference, style: SERIES.reference },
          ...(single ? [] : [{ name: "chunked", points: series.chunked, style: SERIES.chunked }]),
          ...(storedPoints ? [{ name: "stored", points: storedPoints, style: SERIES.stored }] : []),
        ]}
      />
    ),
    [series, width, height, length, valueAxis, shades, boundaries, single, storedPoints, carries, carryDrawing],
  );
  const plot = plotOf(box, drawing);
  useTellDrawn(reference, plot, props.onDrawn);

  const [masked, broken] = shades;
  const legend: ChartLegendModel = {
    title: props.title,
    entries: [
      { label: referenceLabel, colour: SERIES.reference.colour, width: SERIES.reference.width },
      ...(single
        ? []
        : [
            {
              label: chunkedLabel,
              colour: SERIES.chunked.colour,
              dash: SERIES.chunked.dash,
              width: SERIES.chunked.width,
            },
          ]),
      ...(storedPoints && stored
        ? [{ label: stored.label, colour: SERIES.stored.colour, dash: SERIES.stored.dash, width: SERIES.stored.width }]
        : []),
      ...(carries
        ? [
            { label: "local sum of the chunk", colour: CARRY_STYLE.local.colour, width: CARRY_STYLE.local.width },
            { label: "carried in from later chunks", colour: CARRY_STYLE.band.colour, width: 0 },
          ]
        : []),
      ...(boundaries.lines.length ? [{ label: "chunk boundary", colour: BOUNDARY_STROKE, width: 1 }] : []),
      ...(masked.spans.length ? [{ label: "masked tokens", colour: MASK_FILL, width: 0 }] : []),
      ...(broken.spans.length ? [{ label: "NaN / ∞ (gap)", colour: NON_FINITE_FILL, width: 0 }] : []),
    ],
    notes: [
      ...downsampleNotes([series.reference, series.chunked], length),
      ...(boundaries.tooDense ? ["chunks too narrow to draw their boundaries at this width"] : []),
      ...(series.nonFinite ? [`${series.nonFinite} tokens NaN or infinite: gaps`] : []),
      ...(carries && carryStep > 1 ? [`carries drawn every ${carryStep} tokens (and at each chunk's ends)`] : []),
    ],
  };

  const precision = props.chunkedPrecision ?? "float32";
  return (
    <ChartFrame
      className="returns-chart"
      legend={legend}
      box={box}
      chart={props}
      length={length}
      plot={plot}
      readoutMore={
        carries
          ? {
              idle: "hover for the local sum and the carry",
              at: (t) => (
                <>
                  <span className="readout-part">
                    local <span data-testid="readout-local">{formatExact64(carries.local[t])}</span>
                  </span>
                  <span className="readout-part">
                    + carried <span data-testid="readout-carried">{formatExact64(carries.carried[t])}</span>
                  </span>
                  <span className="readout-part">
                    = total <span data-testid="readout-total">{formatExact64(carries.total[t])}</span>
                  </span>
                </>
              ),
            }
          : undefined
      }
      readout={(t) => (
        <>
          t {t} · chunk {chunkOfToken(chunkBoundaries, t)} · {single ? "" : "serial "}
          {formatValue(reference[t], "float64")}
          {single ? null : (
            <>
              {" "}
              · chunked {formatValue(chunked[t], precision)} · Δ {formatShort(chunked[t] - reference[t])}
            </>
          )}
          {storedPoints && stored ? ` · ${stored.short} ${formatValue(stored.values[t], "float32")}` : ""}
          {lossMask?.[t] === 0 ? " · masked" : ""}
        </>
      )}
    />
  );
}
