import { scaleLinear } from "d3-scale";
import { memo, type ReactNode, useLayoutEffect, useRef } from "react";
import { type LineData, tokenDomain, tokenTicks } from "./chartSeries";
import { BOUNDARY_STROKE, BOUNDARY_STROKE_FAINT, PLOT_LEFT, PLOT_RIGHT } from "./plotLayout";

/**
 * The plot of every per-token chart (returns, error, conventions, the run view's sample and fields):
 * one SVG of grid, shaded spans, chunk boundaries, axes and lines, through two d3 linear scales. It
 * replaced a recharts LineChart that drew only the grid and the axes, and was fought for that: axis
 * elements memoised by identity, a hidden warm-up chart, each plot put off to a task of its own
 * (docs/design.md, "Charts"). Everything here is a function of the props, drawn in the render.
 */

/** Vertical extent of the plot area inside a chart of a given height: a top margin, then the token axis. */
export const PLOT_TOP = 8;
export const X_AXIS_HEIGHT = 24;
/** Tick length and label font size (px), axis and grid colours: those recharts drew. */
const TICK = 6;
const FONT_SIZE = 11;
const AXIS = "#666";
const GRID = "#e5e7eb";

export interface LineStyle {
  colour: string;
  width: number;
  dash?: string;
}

/** One line: its name (the path's `data-name`), its points and its stroke. */
export interface PlotLineSpec {
  name: string;
  points: LineData;
  style: LineStyle;
}

/** Token spans `[start, end)` shaded across the plot's height (masked, non-finite). */
export interface Shade {
  spans: Array<[number, number]>;
  fill: string;
  opacity: number;
}

/** A value axis whose domain and ticks the chart gives (niceDomain's, or the error chart's decades). */
export interface ValueAxis {
  domain: [number, number];
  ticks: number[];
  tickFormatter(value: number): string;
}

export type Scale = (value: number) => number;

/** Token t at the centre of its cell (the heatmap's geometry); values from the plot's bottom up. */
export function plotScales(
  width: number,
  height: number,
  length: number,
  domain: [number, number],
  xDomain: [number, number] = tokenDomain(length),
) {
  const right = Math.max(PLOT_LEFT + 1, width - PLOT_RIGHT);
  return {
    x: scaleLinear().domain(xDomain).range([PLOT_LEFT, right]),
    y: scaleLinear()
      .domain(domain)
      .range([height - X_AXIS_HEIGHT, PLOT_TOP]),
  };
}

export interface TokenPlotProps {
  width: number;
  height: number;
  /** Tokens on the axis. */
  length: number;
  value: ValueAxis;
  lines: readonly PlotLineSpec[];
  shades?: readonly Shade[];
  /** Chunk starts to draw as lines (drawableBoundaries'), faint where crowded. */
  boundaries?: { lines: number[]; crowded: boolean };
  /** Marks drawn under the lines through the same scales (the returns chart's carries, a trend's points). */
  under?(x: Scale, y: Scale): ReactNode;
  /** An x axis of its own in place of the token axis (the run view's steps): its domain and labelled ticks. */
  xAxis?: { domain: [number, number]; ticks: number[] };
}

/** Hundredths of a pixel: a shorter path string, the same picture. */
const round = (px: number) => Math.round(px * 100) / 100;

export const TokenPlot = memo(function TokenPlot(props: TokenPlotProps) {
  const { width, height, length, value } = props;
  const { x, y } = plotScales(width, height, length, value.domain, props.xAxis?.domain);
  const [left, right] = x.range();
  const bottom = height - X_AXIS_HEIGHT;
  const plotWidth = right - left;
  const xTicks = props.xAxis?.ticks ?? tokenTicks(length, plotWidth);
  const grid = value.ticks.map((v) => `M${left},${round(y(v))}H${right}`).join("");
  const chunkLines = (props.boundaries?.lines ?? [])
    .map((t) => `M${Math.round(x(t - 0.5)) + 0.5},${PLOT_TOP}V${bottom}`)
    .join("");
  return (
    <svg className="token-plot" width={width} height={height} aria-hidden="true">
      {props.shades?.map((shade) =>
        shade.spans.map(([start, end]) => (
          <rect
            key={`${shade.fill}${start}`}
            x={round(x(start - 0.5))}
            y={PLOT_TOP}
            width={round(Math.max(x(end - 0.5) - x(start - 0.5), 1))}
            height={bottom - PLOT_TOP}
            fill={shade.fill}
            fillOpacity={shade.opacity}
          />
        )),
      )}
      {chunkLines && (
        <path
          d={chunkLines}
          stroke={props.boundaries?.crowded ? BOUNDARY_STROKE_FAINT : BOUNDARY_STROKE}
          strokeWidth={1}
          fill="none"
        />
      )}
      <path className="token-plot-grid" d={grid} stroke={GRID} fill="none" />
      <g className="token-plot-y" fill={AXIS} fontSize={FONT_SIZE}>
        <path
          d={`M${left},${PLOT_TOP}V${bottom}${value.ticks.map((v) => `M${left - TICK},${round(y(v))}h${TICK}`).join("")}`}
          stroke={AXIS}
        />
        {value.ticks.map((v) => (
          <text key={v} x={left - TICK - 2} y={round(y(v))} dy="0.355em" textAnchor="end">
            {value.tickFormatter(v)}
          </text>
        ))}
      </g>
      <g className="token-plot-x" fill={AXIS} fontSize={FONT_SIZE}>
        {/* The tick steps of tokenTicks, which the heatmap's axis shares (d3's ticks may fall closer than 70 px). */}
        {xTicks.map((t) => (
          <text key={t} x={round(x(t))} y={bottom + TICK + 2} dy="0.71em" textAnchor="middle">
            {t}
          </text>
        ))}
        <path
          d={`M${left},${bottom}H${right}${xTicks.map((t) => `M${round(x(t))},${bottom}v${TICK}`).join("")}`}
          stroke={AXIS}
        />
      </g>
      {props.under?.(x, y)}
      {props.lines.map((line, i) => (
        <path
          // biome-ignore lint/suspicious/noArrayIndexKey: the lines are few and drawn in their given order.
          key={i}
          className="plot-line"
          data-name={line.name}
          d={linePath(line.points, x, y)}
          fill="none"
          stroke={line.style.colour}
          strokeWidth={line.style.width}
          strokeDasharray={line.style.dash}
          // A point alone (a one-token row, or one between gaps) is a zero-length segment: round caps draw it as a dot.
          strokeLinecap="round"
        />
      ))}
    </svg>
  );
});

/**
 * "M x,y L x,y …" through the points in order, lifting the pen at a gap (a null value); a point with
 * no neighbour gets "h0", a zero-length segment, so that it shows (as a dot, with round caps)
 * instead of vanishing.
 */
export function linePath(points: LineData, x: Scale, y: Scale): string {
  const parts: string[] = [];
  let run = 0;
  const lift = () => {
    if (run === 1) parts.push("h0");
    run = 0;
  };
  for (const { t, v } of points) {
    const px = v === null ? Number.NaN : x(t);
    const py = v === null ? Number.NaN : y(v);
    if (!Number.isFinite(px) || !Number.isFinite(py)) {
      lift();
      continue;
    }
    parts.push(`${run > 0 ? "L" : "M"}${roundText(px)},${roundText(py)}`);
    run++;
  }
  lift();
  return parts.join("");
}

/**
 * `String(round(px))`, written from the integer of its hundredths: the same text (a multiple of 0.01
 * under 10^13 has no shorter decimal form), at a fraction of the cost of a fraction's shortest form,
 * which was most of a sample's selection (a 16k-token sample draws about 15,000 points).
 */
export function roundText(px: number): string {
  const k = Math.round(px * 100);
  if (!(Math.abs(k) < 1e15)) return String(round(px));
  const a = Math.abs(k);
  const whole = Math.floor(a / 100);
  const cents = a - whole * 100;
  const sign = k < 0 ? "-" : "";
  if (cents === 0) return sign + whole;
  if (cents % 10 === 0) return `${sign}${whole}.${cents / 10}`;
  return `${sign}${whole}.${cents < 10 ? "0" : ""}${cents}`;
}

/**
 * Tells `onDrawn(value)` in the commit that draws `plot` (a layout effect: a page told there can
 * report the result drawn before the frame is painted). The plot is drawn in the render that brings
 * it, so each new plot is on screen by then.
 */
export function useTellDrawn<T>(value: T, plot: unknown, onDrawn: ((value: T) => void) | undefined): void {
  const latest = useRef(onDrawn);
  latest.current = onDrawn;
  useLayoutEffect(() => {
    if (plot) latest.current?.(value);
  }, [value, plot]);
}
