import { scaleLinear } from "d3-scale";
import { decadeOf } from "../../compute/heatmap/colourScale";
import { envelopeIndices, PX_PER_BUCKET } from "../../compute/playground/downsample";
import { formatShort } from "../../io/formatNumber";

/**
 * What the line charts draw, computed from the full per-token arrays: each line's own downsampled
 * points, non-finite values as gaps, and the log axis of the error chart with its floor.
 */

/** One drawn point of a line: a token and its value (null where the value is NaN or infinite: a gap). */
export interface LinePoint {
  t: number;
  v: number | null;
}

/** A line's points, as TokenPlot draws them (frozen: read only). */
export type LineData = readonly LinePoint[];

export interface ReturnsSeries {
  reference: LineData;
  chunked: LineData;
  /** Tokens in the row (the lines may have fewer points). */
  length: number;
  /** Tokens whose reference or chunked value is not finite. */
  nonFinite: number;
}

const finiteOrNull = (v: number) => (Number.isFinite(v) ? v : null);

/**
 * One line's points: every token of a short row, else the token of its minimum and of its maximum
 * per bucket (and every non-finite token). Each line gets its own points, not the union of all the
 * chart's lines (the union would give each line the others' tokens too: more points, no more shape).
 */
export function linePoints(
  values: ArrayLike<number>,
  length: number,
  buckets: number,
  y: (value: number) => number | null = finiteOrNull,
): LineData {
  const idx = envelopeIndices(values, length, buckets);
  const points = new Array<LinePoint>(idx.length);
  for (let j = 0; j < idx.length; j++) points[j] = { t: idx[j], v: y(values[idx[j]]) };
  return Object.freeze(points);
}

/** The legend's note when lines are drawn with fewer points than the row has tokens, else none. */
export function downsampleNotes(lines: readonly LineData[], length: number): string[] {
  const drawn = Math.max(0, ...lines.map((line) => line.length));
  if (drawn >= length) return [];
  return [`up to ${drawn} of ${length} tokens drawn per line: its minimum and maximum every ${PX_PER_BUCKET} pixels`];
}

export function returnsSeries(
  reference: ArrayLike<number>,
  chunked: ArrayLike<number>,
  widthPx: number,
): ReturnsSeries {
  const length = Math.min(reference.length, chunked.length);
  let nonFinite = 0;
  for (let t = 0; t < length; t++) if (!Number.isFinite(reference[t]) || !Number.isFinite(chunked[t])) nonFinite++;
  return {
    reference: linePoints(reference, length, widthPx),
    chunked: linePoints(chunked, length, widthPx),
    length,
    nonFinite,
  };
}

/** The error chart's lines; each point's value is log10 of the error, clamped up to the floor. */
export interface ErrorSeries {
  chunked: LineData;
  serial: LineData;
  /** Each token's error bound, where the run has one. */
  bound: LineData | null;
  length: number;
  /** Exponent of the axis floor: zeros (and anything smaller) are drawn at 10^floor. */
  floor: number;
  /** Exponent of the axis top. */
  top: number;
  /** Decade ticks, as exponents. */
  ticks: number[];
  /** Exact-zero errors drawn at the floor, per series. */
  zeros: { chunked: number; serial: number };
  /** Errors below the floor (other than 0) drawn at it, when the axis is capped. */
  belowFloor: number;
  /** Tokens where either error is NaN or infinite. */
  nonFiniteTokens: number[];
}

/** The most decades the error axis spans; smaller errors sit on the floor (the legend says so). */
export const MAX_ERROR_DECADES = 12;

function extent(arrays: (ArrayLike<number> | undefined)[], length: number) {
  let min = Number.POSITIVE_INFINITY;
  let max = 0;
  for (const a of arrays) {
    if (!a) continue;
    for (let t = 0; t < length; t++) {
      const v = a[t];
      if (v > 0 && Number.isFinite(v)) {
        if (v < min) min = v;
        if (v > max) max = v;
      }
    }
  }
  return max > 0 ? { min, max } : null;
}

export function errorSeries(
  chunkedError: ArrayLike<number>,
  serialError: ArrayLike<number>,
  bound: ArrayLike<number> | undefined,
  widthPx: number,
): ErrorSeries {
  const length = Math.min(chunkedError.length, serialError.length);
  const range = extent([chunkedError, serialError, bound], length);
  // One decade of room under the smallest error so the zeros' line sits apart from real values.
  const top = range ? decadeOf(range.max) + 1 : 0;
  const floor = range ? Math.max(decadeOf(range.min) - 1, top - MAX_ERROR_DECADES) : -1;
  const floorValue = 10 ** floor;
  const log = (v: number) => (Number.isFinite(v) ? Math.log10(Math.max(v, floorValue)) : null);
  const zeros = { chunked: 0, serial: 0 };
  let belowFloor = 0;
  const nonFiniteTokens: number[] = [];
  for (let t = 0; t < length; t++) {
    const c = chunkedError[t];
    const s = serialError[t];
    if (c === 0) zeros.chunked++;
    if (s === 0) zeros.serial++;
    if ((c > 0 && c < floorValue) || (s > 0 && s < floorValue)) belowFloor++;
    if (!Number.isFinite(c) || !Number.isFinite(s)) nonFiniteTokens.push(t);
  }
  const ticks: number[] = [];
  const step = Math.ceil((top - floor) / 6);
  for (let k = top; k >= floor; k -= step) ticks.push(k);
  return {
    chunked: linePoints(chunkedError, length, widthPx, log),
    serial: linePoints(serialError, length, widthPx, log),
    bound: bound ? linePoints(bound, length, widthPx, log) : null,
    length,
    floor,
    top,
    ticks: ticks.reverse(),
    zeros,
    belowFloor,
    nonFiniteTokens,
  };
}

/** A line whose spread is at most this share of its size is drawn as flat (see niceDomain). */
export const FLAT_SHARE = 1e-4;

/** Tick labels for evenly spaced ticks: as short as formatShort, with the digits the step needs to tell them apart. */
export function tickLabels(ticks: readonly number[]): (value: number) => string {
  const distinct = (format: (x: number) => string) => new Set(ticks.map(format)).size === ticks.length;
  if (distinct(formatShort)) return formatShort;
  for (let digits = 4; digits <= 15; digits++) {
    const format = (x: number) => (x === 0 ? "0" : String(Number(x.toPrecision(digits))));
    if (distinct(format)) return format;
  }
  return (x) => String(x);
}

/** Value ticks about 25 px apart or more on a chart `height` px tall (its plot, less the margin and the token axis), 2 to 5 of them. */
export function valueTickCount(height: number): number {
  return Math.min(5, Math.max(2, Math.floor((height - 32) / 25)));
}

/** A value axis over the lines of a chart `height` px tall: niceDomain's domain and ticks, labelled by tickLabels. */
export function valueAxisOf(lines: readonly LineData[], height = 200) {
  const { domain, ticks } = niceDomain(lines, valueTickCount(height));
  return { domain, ticks, tickFormatter: tickLabels(ticks) };
}

/**
 * A y axis over the finite values of the given lines, widened to round ticks (d3's: steps of 1, 2
 * or 5 × 10^k, about `count` of them) so the labels read as plain numbers.
 */
export function niceDomain(lines: readonly LineData[], count = 5): { domain: [number, number]; ticks: number[] } {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const line of lines) {
    for (const { v } of line) {
      if (v === null) continue;
      if (v < min) min = v;
      if (v > max) max = v;
    }
  }
  if (!(min <= max)) return { domain: [-1, 1], ticks: [-1, 0, 1] };
  // A flat line (or one whose only wiggle is float32 rounding, 1e-7 of its size) gets an axis of ±1%
  // around it: ticks spaced by its wiggle would all read "13.5" at three digits, and say nothing.
  const size = Math.max(Math.abs(min), Math.abs(max));
  if (max - min <= size * FLAT_SHARE) {
    const mid = (min + max) / 2;
    const pad = size === 0 ? 1 : size * 0.01;
    min = mid - pad;
    max = mid + pad;
  }
  // d3's tick step for the data, and the domain widened once to it. (d3's own nice() widens until
  // the step stops changing, which can double a short chart's domain: [-3.3, 4.2] became [-5, 10].)
  // d3 may step finer than asked (0.2 for a spread of 1.28 in 5): then fewer are asked, so that the
  // labels never crowd the plot, at most count + 1 steps.
  const snap = (x: number) => Number(x.toPrecision(12));
  let lo = min;
  let hi = max;
  let step = 1;
  for (let asked = Math.max(2, count); asked >= 2; asked--) {
    // d3's step depends on the spread alone; from 0 there are always two ticks to read it off.
    const inner = scaleLinear()
      .domain([0, max - min])
      .ticks(asked);
    step = inner[1] - inner[0];
    lo = snap(Math.floor(min / step + 1e-9) * step);
    hi = snap(Math.ceil(max / step - 1e-9) * step);
    if ((hi - lo) / step <= count + 1.5) break;
  }
  // Asked for as many ticks as steps fit, d3 gives back this step exactly.
  return {
    domain: [lo, hi],
    ticks: scaleLinear()
      .domain([lo, hi])
      .ticks(Math.round((hi - lo) / step)),
  };
}

/**
 * The token axis runs from −0.5 to length − 0.5, so token t is drawn at the centre of the heatmap's
 * cell t and a chunk boundary (between tokens t − 1 and t) at t − 0.5 falls on a cell edge.
 */
export function tokenDomain(length: number): [number, number] {
  return [-0.5, Math.max(length, 1) - 0.5];
}

/** Token under a pointer at x (px from the chart's left edge) for a plot spanning [left, right]. */
export function tokenAtX(x: number, left: number, right: number, length: number): number | null {
  if (length <= 0 || x < left || x > right || right <= left) return null;
  const t = Math.floor(((x - left) / (right - left)) * length);
  return Math.min(length - 1, Math.max(0, t));
}

/** Round token ticks (steps of 1, 2 or 5 × 10^k) at least `minGapPx` apart on a plot `widthPx` wide. */
export function tokenTicks(length: number, widthPx: number, minGapPx = 70): number[] {
  if (length <= 0) return [];
  const wanted = (length * minGapPx) / Math.max(widthPx, 1);
  let step = 1;
  for (let p = 1; ; p *= 10) {
    const s = [1, 2, 5].map((m) => m * p).find((c) => c >= wanted);
    if (s !== undefined) {
      step = s;
      break;
    }
  }
  const ticks: number[] = [];
  for (let t = 0; t < length; t += step) ticks.push(t);
  return ticks;
}
