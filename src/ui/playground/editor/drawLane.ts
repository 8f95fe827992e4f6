import { type LaneRange, poolBars, yOf } from "../../../compute/playground/editorGeometry";
import { BOUNDARY_STROKE, HOVER_STROKE } from "../../charts/plotLayout";

/** Diverging ends (RdBu): positive blue, negative red; the same signs as the heatmap's legend. */
const POSITIVE = "#2166ac";
const NEGATIVE = "#b2182b";
const MASKED_FILL = "rgba(107, 114, 128, 0.18)";
const PADDING_FILL = "rgba(156, 163, 175, 0.28)";
const MASK_ON = "#4b5563";
const HOLE_FILL = "#fee2e2";
const CURSOR_FILL = "rgba(37, 99, 235, 0.18)";
/** The live returns line: the chunked series colour of the charts (Okabe–Ito vermillion). */
const OVERLAY = "#D55E00";

export interface LanePicture {
  /** CSS pixel size of the plot. */
  width: number;
  height: number;
  /** Tokens on the shared axis (the padded length). */
  cols: number;
  /** The row's real length: tokens past it are padding. */
  length: number;
  /** Values of a value lane, or the mask itself for the mask lane. */
  values: ArrayLike<number>;
  mask: ArrayLike<number>;
  kind: "values" | "mask";
  range: LaneRange;
  /** Chunk boundaries to draw (already thinned to what the width can show). */
  boundaries: readonly number[];
  cursor: number | null;
  hover: number | null;
  /**
   * A line drawn over the bars on a scale of its own (the row's returns while a stroke lasts),
   * pooled like the bars so a long row costs one segment per pixel.
   */
  overlay?: ArrayLike<number> | null;
}

/** Draws one lane: padding, masked tokens, chunk boundaries, bars (pooled past 1 token per 2 px), cursor. */
export function drawLane(ctx: CanvasRenderingContext2D, p: LanePicture): void {
  const { width, height, cols, length } = p;
  ctx.clearRect(0, 0, width, height);
  if (cols <= 0) return;
  const xOf = (t: number) => (t / cols) * width;
  const perToken = width / cols >= 2;
  const bins = perToken ? cols : Math.max(1, Math.floor(width));
  const binX = (i: number) => (perToken ? xOf(i) : i);
  const binW = perToken ? Math.max(1, width / cols - (width / cols >= 5 ? 1 : 0)) : 1;

  if (length < cols) {
    ctx.fillStyle = PADDING_FILL;
    ctx.fillRect(xOf(length), 0, width - xOf(length), height);
  }
  // Masked tokens: a band wherever any token of a bin is masked, so a one-token hole survives pooling.
  if (p.kind === "values") {
    const holes = poolBars(p.mask, length, cols, bins);
    ctx.fillStyle = MASKED_FILL;
    for (let i = 0; i < bins; i++)
      if (holes[2 * i] === 0) ctx.fillRect(binX(i), 0, perToken ? width / cols : 1, height);
  }
  ctx.strokeStyle = BOUNDARY_STROKE;
  ctx.setLineDash([3, 3]);
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (const t of p.boundaries) {
    const x = Math.round(xOf(t)) + 0.5;
    ctx.moveTo(x, 0);
    ctx.lineTo(x, height);
  }
  ctx.stroke();
  ctx.setLineDash([]);

  if (p.kind === "mask") {
    // Kept tokens as a dark bar, holes as a pale red gap with a red edge: readable without colour too.
    const pooled = poolBars(p.values, length, cols, bins);
    for (let i = 0; i < bins; i++) {
      const lo = pooled[2 * i];
      if (Number.isNaN(lo)) continue;
      ctx.fillStyle = lo === 0 ? HOLE_FILL : MASK_ON;
      ctx.fillRect(binX(i), lo === 0 ? 1 : 4, binW, lo === 0 ? height - 2 : height - 8);
      if (lo === 0) {
        ctx.fillStyle = NEGATIVE;
        ctx.fillRect(binX(i), 1, binW, 2);
        ctx.fillRect(binX(i), height - 3, binW, 2);
      }
    }
  } else {
    const zero = yOf(0, height, p.range);
    ctx.fillStyle = "#d1d5db";
    ctx.fillRect(0, Math.round(zero), width, 1);
    const pooled = poolBars(p.values, length, cols, bins);
    for (let i = 0; i < bins; i++) {
      const lo = pooled[2 * i];
      const hi = pooled[2 * i + 1];
      if (Number.isNaN(lo)) continue;
      if (hi > 0) {
        const y = yOf(Math.min(hi, p.range.max), height, p.range);
        ctx.fillStyle = POSITIVE;
        ctx.fillRect(binX(i), y, binW, Math.max(1, zero - y));
      }
      if (lo < 0) {
        const y = yOf(Math.max(lo, p.range.min), height, p.range);
        ctx.fillStyle = NEGATIVE;
        ctx.fillRect(binX(i), zero, binW, Math.max(1, y - zero));
      }
    }
  }
  if (p.overlay && p.overlay.length > 0) drawOverlay(ctx, p.overlay, p, bins, binX, perToken ? width / cols : 1);
  if (p.cursor !== null) {
    ctx.fillStyle = CURSOR_FILL;
    ctx.fillRect(xOf(p.cursor), 0, Math.max(2, width / cols), height);
  }
  if (p.hover !== null) {
    ctx.fillStyle = HOVER_STROKE;
    ctx.fillRect(Math.round(xOf(p.hover + 0.5)), 0, 1, height);
  }
}

/** The overlay as a min/max band per bin, scaled to its own range with a little margin. */
function drawOverlay(
  ctx: CanvasRenderingContext2D,
  values: ArrayLike<number>,
  p: LanePicture,
  bins: number,
  binX: (i: number) => number,
  binWidth: number,
): void {
  const pooled = poolBars(values, values.length, p.cols, bins);
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < pooled.length; i++) {
    const v = pooled[i];
    if (Number.isFinite(v)) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
  }
  if (!(hi >= lo)) return;
  const span = hi - lo || 1;
  const y = (v: number) => 4 + (1 - (v - lo) / span) * (p.height - 8);
  ctx.save();
  ctx.strokeStyle = OVERLAY;
  ctx.lineWidth = 1.5;
  ctx.lineJoin = "round";
  ctx.beginPath();
  let started = false;
  for (let i = 0; i < bins; i++) {
    const a = pooled[2 * i];
    const b = pooled[2 * i + 1];
    if (!Number.isFinite(a) || !Number.isFinite(b)) continue;
    const x = binX(i) + binWidth / 2;
    if (!started) ctx.moveTo(x, y(a));
    else ctx.lineTo(x, y(a));
    if (b !== a) ctx.lineTo(x, y(b));
    started = true;
  }
  ctx.stroke();
  ctx.restore();
}
