import { useCallback, useLayoutEffect, useMemo, useRef } from "react";
import { type ScaleFunction, useXAxisScale, useYAxisScale } from "recharts";
import type { LineData } from "./chartSeries";

export interface LineStyle {
  colour: string;
  width: number;
  dash?: string;
}

/**
 * One line of a token chart, drawn from its own points through the chart's own scales (recharts'
 * `useXAxisScale` / `useYAxisScale`, its hooks for custom shapes). A recharts `<Line>` ran every
 * point through its store and selectors in every plot task: the data domain of both axes (even
 * one whose domain we give), the points, the Immer store; 30–60 ms of CPU per chart at 8192
 * tokens, a chart's whole plot task on a 2-core machine. Our axes' domains and ticks are given, so
 * recharts needs none of the points; every point lies inside them, so nothing needs clipping.
 */
export function PlotLine({
  points,
  name,
  style,
  onDrawn,
}: {
  points: LineData;
  name: string;
  style: LineStyle;
  /**
   * Told the points once they are drawn through the chart's scales, in the commit that draws them (a
   * layout effect: a page told in it can report the result drawn before the frame is painted).
   * Recharts hands a new chart its scales a frame after the chart mounts (its store tells its
   * subscribers in an animation frame), so the line is on screen one or two tasks after the plot
   * that holds it; a new domain's scale likewise comes in the animation frame after the commit,
   * before that frame is painted.
   */
  onDrawn?(points: LineData): void;
}) {
  const x = useXAxisScale();
  const y = useYAxisScale();
  const d = useMemo(() => (x && y ? linePath(points, x, y) : ""), [points, x, y]);
  const scaled = x !== undefined && y !== undefined;
  useLayoutEffect(() => {
    if (scaled) onDrawn?.(points);
  }, [scaled, points, onDrawn]);
  if (!d) return null;
  return (
    <path
      className="plot-line"
      data-name={name}
      d={d}
      fill="none"
      stroke={style.colour}
      strokeWidth={style.width}
      strokeDasharray={style.dash}
      // A point alone (a one-token row, or one between gaps) is a zero-length segment: round caps draw it as a dot.
      strokeLinecap="round"
    />
  );
}

/**
 * "M x,y L x,y …" through the points in order, lifting the pen at a gap (a null value), as a
 * recharts linear line without connectNulls draws it; a point with no neighbour gets "h0", a
 * zero-length segment, so that it shows (as a dot, with round caps) instead of vanishing.
 */
export function linePath(points: LineData, x: ScaleFunction, y: ScaleFunction): string {
  const parts: string[] = [];
  let run = 0;
  const lift = () => {
    if (run === 1) parts.push("h0");
    run = 0;
  };
  for (const { t, v } of points) {
    const px = v === null ? undefined : x(t);
    const py = v === null ? undefined : y(v);
    if (px === undefined || py === undefined || !Number.isFinite(px) || !Number.isFinite(py)) {
      lift();
      continue;
    }
    parts.push(`${run > 0 ? "L" : "M"}${round(px)},${round(py)}`);
    run++;
  }
  lift();
  return parts.join("");
}

/** Hundredths of a pixel: a shorter path string, the same picture. */
function round(px: number): number {
  return Math.round(px * 100) / 100;
}

/**
 * The `onDrawn` to hand a chart's PlotLine: it tells `onDrawn(value)` when the line drawn is the
 * chart's current one (`current`, by identity), not an older plot's still on screen. Stable for the
 * chart's life; undefined when nobody asked to be told.
 */
export function useTellDrawn<T>(
  current: LineData,
  value: T,
  onDrawn: ((value: T) => void) | undefined,
): ((points: LineData) => void) | undefined {
  const latest = useRef({ current, value, onDrawn });
  latest.current = { current, value, onDrawn };
  const tell = useCallback((points: LineData) => {
    const { current, value, onDrawn } = latest.current;
    if (points === current) onDrawn?.(value);
  }, []);
  return onDrawn ? tell : undefined;
}
