/**
 * The lane editor's geometry as plain functions: which token and value a pointer position means,
 * the y range of a lane, pooled bars for rows longer than the pixels, and what a stroke writes.
 * The canvas components only draw what these return.
 */

/** A lane's value range; drawing maps the lane's height onto it (top = max). */
export interface LaneRange {
  min: number;
  max: number;
}

/** A 1-2-5 step at or above x (x > 0): 1, 2, 5, 10, 20, … */
export function niceCeil(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) return 1;
  const decade = 10 ** Math.floor(Math.log10(x));
  for (const step of [1, 2, 5, 10]) if (step * decade >= x * (1 - 1e-12)) return step * decade;
  return 10 * decade;
}

/**
 * A range symmetric about 0 that holds every value (a 1-2-5 step above the largest; ±1 for a lane
 * of zeros), so zero sits in the middle and a user can draw both signs. Small values (a KL of 0.01)
 * get a small range, so their bars show. It is fixed while a stroke lasts, never rescaled mid-stroke.
 * NaN and ±Inf have no height: they are marked on their own, and the finite values set the range
 * (Math.max with a NaN is NaN, which made one typed NaN squash the whole lane into ±1).
 */
export function laneRange(values: ArrayLike<number>): LaneRange {
  let largest = 0;
  for (let i = 0; i < values.length; i++) {
    const size = Math.abs(values[i]);
    if (size > largest && size !== Number.POSITIVE_INFINITY) largest = size;
  }
  const bound = niceCeil(largest > 0 ? largest : 1);
  return { min: -bound, max: bound };
}

/** The token under x in a lane `width` px wide showing tokens [0, cols). */
export function tokenAt(x: number, width: number, cols: number): number {
  if (cols <= 0 || width <= 0) return 0;
  return Math.min(cols - 1, Math.max(0, Math.floor((x / width) * cols)));
}

/** The value at y in a lane `height` px high (y = 0 at the top), rounded to float32 as stored. */
export function valueAt(y: number, height: number, range: LaneRange): number {
  const f = Math.min(1, Math.max(0, 1 - y / height));
  return Math.fround(roundForDrawing(range.min + f * (range.max - range.min), range));
}

/** Drawn values snap to 1/1000 of the lane's span: a stroke gives 0.25, not 0.2497…. */
function roundForDrawing(value: number, range: LaneRange): number {
  const step = (range.max - range.min) / 1000;
  return Math.round(value / step) * step;
}

export function yOf(value: number, height: number, range: LaneRange): number {
  return (1 - (value - range.min) / (range.max - range.min)) * height;
}

/**
 * Per-pixel [min, max] of tokens [0, length) in `bins` columns, so that long rows draw as pooled
 * bars without hiding a spike: bin i covers tokens [floor(i·n/bins), floor((i+1)·n/bins)).
 * Returns 2·bins numbers (min, max); a bin with no token holds NaN.
 */
export function poolBars(values: ArrayLike<number>, length: number, cols: number, bins: number): Float64Array {
  const out = new Float64Array(2 * bins).fill(Number.NaN);
  for (let i = 0; i < bins; i++) {
    const start = Math.floor((i * cols) / bins);
    const end = Math.min(length, Math.max(start + 1, Math.floor(((i + 1) * cols) / bins)));
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    for (let t = start; t < end; t++) {
      const v = values[t];
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    if (end > start) {
      out[2 * i] = lo;
      out[2 * i + 1] = hi;
    }
  }
  return out;
}

/**
 * Writes a stroke segment into a lane: every token from `from` to `to` (either order) gets the
 * value linearly between the two ends, so a fast drag leaves no token between two pointer
 * events untouched. Changes `values` in place and returns whether anything changed.
 */
export function drawSegment(
  values: number[],
  from: { token: number; value: number },
  to: { token: number; value: number },
): boolean {
  const span = to.token - from.token;
  const step = span === 0 ? 0 : Math.sign(span);
  let changed = false;
  for (let t = from.token; ; t += step) {
    if (t >= 0 && t < values.length) {
      const f = span === 0 ? 1 : (t - from.token) / span;
      const value = Math.fround(from.value + f * (to.value - from.value));
      if (values[t] !== value) {
        values[t] = value;
        changed = true;
      }
    }
    if (t === to.token || step === 0) break;
  }
  return changed;
}

/** Paints the loss mask from token `from` to `to` (either order) with 0 (a hole) or 1. */
export function paintMask(mask: (0 | 1)[], from: number, to: number, value: 0 | 1): boolean {
  let changed = false;
  const lo = Math.max(0, Math.min(from, to));
  const hi = Math.min(mask.length - 1, Math.max(from, to));
  for (let t = lo; t <= hi; t++) {
    if (mask[t] !== value) {
      mask[t] = value;
      changed = true;
    }
  }
  return changed;
}
