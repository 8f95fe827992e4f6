/**
 * Min/max envelope downsampling for a chart line: split the token axis into buckets and keep the
 * token of the line's minimum and of its maximum in each bucket (plus any non-finite token, drawn
 * as a gap). A single spike therefore always survives, and every point drawn is a real
 * (token, value) pair. Only what is drawn is reduced, never what is computed.
 */

/**
 * Screen pixels per envelope bucket in the charts. Two keeps the lines' shape at a glance and every
 * spike, with half the points to draw (about 600 per line at 8192 tokens on a plot 600 px wide).
 */
export const PX_PER_BUCKET = 2;

/** Below this many tokens every point is drawn. */
export const DOWNSAMPLE_ABOVE = 2000;

/**
 * Sorted token indices to draw for one line. `buckets` is about the plot's width in pixels: each
 * bucket gives up to two points (its minimum and its maximum), so about two points per pixel.
 */
export function envelopeIndices(values: ArrayLike<number>, length: number, buckets: number): Int32Array {
  const n = length;
  if (n <= Math.max(DOWNSAMPLE_ABOVE, 2 * buckets)) return Int32Array.from({ length: n }, (_, i) => i);
  const keep = new Uint8Array(n);
  keep[0] = 1;
  keep[n - 1] = 1;
  const count = Math.max(1, Math.floor(buckets));
  for (let b = 0; b < count; b++) {
    const start = Math.floor((b * n) / count);
    const end = Math.floor(((b + 1) * n) / count);
    let lo = -1;
    let hi = -1;
    for (let i = start; i < end; i++) {
      const v = values[i];
      if (!Number.isFinite(v)) {
        keep[i] = 1; // a gap or an infinity must show wherever it is
        continue;
      }
      if (lo < 0 || v < values[lo]) lo = i;
      if (hi < 0 || v > values[hi]) hi = i;
    }
    if (lo >= 0) keep[lo] = 1;
    if (hi >= 0) keep[hi] = 1;
  }
  let kept = 0;
  for (let i = 0; i < n; i++) kept += keep[i];
  const out = new Int32Array(kept);
  for (let i = 0, j = 0; i < n; i++) if (keep[i]) out[j++] = i;
  return out;
}
