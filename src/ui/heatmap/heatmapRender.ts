import { NON_FINITE_COLOUR } from "../../compute/heatmap/colourScale";
import { BinKind, type PooledGrid } from "../../compute/playground/pooling";
import { tokenTicks } from "../charts/chartSeries";
import { drawableBoundaries } from "../charts/chunkBoundaries";
import { binEdges, binRect, forEachBinRun, type HeatmapLayout } from "./heatmapGeometry";

/** Everything one picture of the heatmap depends on. */
export interface HeatmapPicture {
  grid: PooledGrid;
  /** One RGBA pixel per bin, coloured where the grid was pooled (picture.ts). */
  pixels: Uint8ClampedArray<ArrayBuffer>;
  /** The pixels as a bitmap a worker made, drawn as they are (PooledPicture's `bitmap`). */
  bitmap?: ImageBitmap;
  rows: number;
  cols: number;
  layout: HeatmapLayout;
  chunkBoundaries: readonly number[];
  /** Bin of the largest finite error, marked with ▼ above the plot and a ring; −1 for none. */
  worst: number;
}

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

/** Both diagonals of a rectangle, repeated along a long one every `h` pixels, so each cross stays square. */
export function drawCross(ctx: CanvasRenderingContext2D, x: number, y: number, w: number, h: number): void {
  const step = Math.max(h, 4);
  ctx.beginPath();
  for (let from = x; from < x + w; from += step) {
    const to = Math.min(from + step, x + w);
    ctx.moveTo(from, y);
    ctx.lineTo(to, y + h);
    ctx.moveTo(from, y + h);
    ctx.lineTo(to, y);
  }
  ctx.stroke();
}

/**
 * Drawn once and reused: a canvas and its context made on every draw cost about 2 ms of CPU of a
 * teaching-size edit's redraw (bench:ui's profile, 2026-12-06), in the frame the edit must fit in.
 */
let hatchTile: HTMLCanvasElement | null = null;
const hatchPatterns = new WeakMap<CanvasRenderingContext2D, CanvasPattern | null>();
let cellsCanvas: { canvas: HTMLCanvasElement; ctx: CanvasRenderingContext2D | null } | null = null;

/** A small diagonal-line tile: masked tokens are hatched so they read without colour (one pattern per context). */
export function hatchPattern(ctx: CanvasRenderingContext2D): CanvasPattern | null {
  const made = hatchPatterns.get(ctx);
  if (made !== undefined) return made;
  if (!hatchTile) {
    const tile = document.createElement("canvas");
    tile.width = 6;
    tile.height = 6;
    const t = tile.getContext("2d");
    if (!t) return null;
    t.strokeStyle = "rgba(17, 24, 39, 0.55)";
    t.lineWidth = 1.2;
    t.beginPath();
    t.moveTo(-1, 7);
    t.lineTo(7, -1);
    t.moveTo(5, 7);
    t.lineTo(7, 5);
    t.moveTo(-1, 1);
    t.lineTo(1, -1);
    t.stroke();
    hatchTile = tile;
  }
  const pattern = ctx.createPattern(hatchTile, "repeat");
  hatchPatterns.set(ctx, pattern);
  return pattern;
}

/** The picture's pixels, one per bin, on a canvas of the grid's size (one scratch canvas, drawn from at once). */
function cellsOf(picture: HeatmapPicture): CanvasImageSource {
  if (picture.bitmap) return picture.bitmap;
  const { binsX, binsY } = picture.grid;
  if (!cellsCanvas) {
    const canvas = document.createElement("canvas");
    cellsCanvas = { canvas, ctx: canvas.getContext("2d") };
  }
  const { canvas, ctx } = cellsCanvas;
  if (canvas.width !== binsX) canvas.width = binsX;
  if (canvas.height !== binsY) canvas.height = binsY;
  ctx?.putImageData(new ImageData(picture.pixels, binsX, binsY), 0, 0);
  return canvas;
}

/** The static picture: cells, masks, cells over bound, chunk boundaries, row labels and the token axis. */
export function drawHeatmapBase(ctx: CanvasRenderingContext2D, picture: HeatmapPicture, dpr: number): void {
  const { grid, rows, cols, layout } = picture;
  const { left, top, plotWidth, plotHeight } = layout;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, ctx.canvas.width, ctx.canvas.height);

  const cells = cellsOf(picture);
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(cells, left, top, plotWidth, plotHeight);

  // Each flag's runs of bins as one path, filled or stroked once: a 512-row picture has thousands of
  // masked runs, and a fillRect or strokeRect a run (with a rectangle made for each) was most of the
  // draw's 20–30 ms of CPU after a dump's verdict.
  const edges = binEdges(layout, grid, rows, cols);
  const eachRect = (flag: Uint8Array, rect: (x: number, y: number, w: number, h: number) => void) =>
    forEachBinRun(grid, flag, (by, from, to) => {
      const y = edges.y[by];
      rect(edges.x[from], y, edges.x[to] - edges.x[from], edges.y[by + 1] - y);
    });
  // Outlines 1.5 px wide inset by half their width, as strokeRect drew them; each rectangle is its own subpath, so a
  // dash pattern starts again at each, as it did.
  const outlines = (flag: Uint8Array) => {
    ctx.beginPath();
    eachRect(flag, (x, y, w, h) => ctx.rect(x + 0.75, y + 0.75, Math.max(w - 1.5, 0.5), Math.max(h - 1.5, 0.5)));
    ctx.stroke();
  };

  const hatch = hatchPattern(ctx);
  if (hatch) {
    ctx.fillStyle = hatch;
    ctx.beginPath();
    eachRect(grid.masked, (x, y, w, h) => ctx.rect(x, y, w, h));
    ctx.fill();
  }

  // Non-finite cells: besides their own colour, an outline at least 5 px wide, so a single NaN among
  // 8192 tokens is seen. Cells both scans lost are dashed; cells only the chunked scan lost (the
  // serial loop kept a number) are solid and crossed, so the two are told apart without colour.
  const markNonFinite = (kind: number, crossed: boolean) => {
    // Most pictures have none: one scan to say so, not a copy of every bin and a pass over it.
    if (!grid.kind.includes(kind)) return;
    const cells = grid.kind.map((k) => (k === kind ? 1 : 0));
    ctx.lineWidth = 1;
    ctx.strokeStyle = "#111827";
    ctx.setLineDash(crossed ? [] : [2, 2]);
    eachRect(cells, (rx, y, rw, h) => {
      const w = Math.max(rw, 5);
      const x = rx + rw / 2 - w / 2;
      ctx.fillStyle = `rgb(${NON_FINITE_COLOUR.join(",")})`;
      ctx.fillRect(x, y, w, h);
      ctx.strokeRect(x + 0.5, y + 0.5, w - 1, Math.max(h - 1, 1));
      if (crossed) drawCross(ctx, x, y, w, h);
    });
    ctx.setLineDash([]);
  };
  markNonFinite(BinKind.nonFinite, false);
  markNonFinite(BinKind.chunkedOnlyNonFinite, true);

  // Cells whose bound is NaN or ±Inf (it checks nothing): a dotted outline, never taken for within.
  ctx.setLineDash([1, 2]);
  ctx.strokeStyle = "#000";
  ctx.lineWidth = 1.5;
  outlines(grid.unchecked);
  ctx.setLineDash([]);

  // Cells over their bound: a solid outline and, where the row is tall enough, a ▲ glyph (the glyphs
  // lie inside their own cells' outlines, so all outlines first, then all glyphs, draws the same).
  ctx.strokeStyle = "#000";
  ctx.lineWidth = 1.5;
  outlines(grid.overBound);
  ctx.beginPath();
  let glyphs = 0;
  eachRect(grid.overBound, (x, y, _w, h) => {
    if (h < 8) return;
    const s = Math.min(7, h - 2);
    ctx.moveTo(x + 1, y + 1 + s);
    ctx.lineTo(x + 1 + s / 2, y + 1);
    ctx.lineTo(x + 1 + s, y + 1 + s);
    ctx.closePath();
    glyphs++;
  });
  if (glyphs > 0) {
    ctx.fillStyle = "#fff";
    ctx.fill();
    ctx.lineWidth = 1;
    ctx.stroke();
  }

  // Chunk boundaries: ticks above the plot always, lines through it when chunks are wide enough.
  const starts = picture.chunkBoundaries.filter((t) => t > 0 && t < cols);
  const { lines } = drawableBoundaries(starts, cols, plotWidth, 3);
  ctx.strokeStyle = "rgba(17, 24, 39, 0.3)";
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (const t of lines) {
    const x = Math.round(left + (t / cols) * plotWidth) + 0.5;
    ctx.moveTo(x, top - 5);
    ctx.lineTo(x, top + plotHeight);
  }
  ctx.stroke();

  if (picture.worst >= 0) drawWorstMark(ctx, picture);

  // Row labels in the gutter (clear of the selected row's ▶), thinned so they never overlap.
  ctx.fillStyle = "#374151";
  ctx.font = `10px ${FONT}`;
  ctx.textAlign = "right";
  ctx.textBaseline = "middle";
  const rowHeight = plotHeight / rows;
  const every = Math.max(1, Math.ceil(12 / rowHeight));
  for (let r = 0; r < rows; r += every) ctx.fillText(`row ${r}`, left - 14, top + (r + 0.5) * rowHeight);

  // Token axis, with cell centres at the same x as the charts' points.
  ctx.textAlign = "center";
  ctx.textBaseline = "top";
  ctx.strokeStyle = "#6b7280";
  ctx.beginPath();
  for (const t of tokenTicks(cols, plotWidth)) {
    const x = left + ((t + 0.5) / cols) * plotWidth;
    ctx.moveTo(x, top + plotHeight);
    ctx.lineTo(x, top + plotHeight + 4);
    ctx.fillText(String(t), x, top + plotHeight + 6);
  }
  ctx.stroke();
}

/** ▼ above the largest error's column and a black-and-white ring around it, at least 5 px wide. */
function drawWorstMark(ctx: CanvasRenderingContext2D, picture: HeatmapPicture): void {
  const { grid, rows, cols, layout } = picture;
  const bx = picture.worst % grid.binsX;
  const by = Math.floor(picture.worst / grid.binsX);
  const r = binRect(layout, grid, rows, cols, bx, by);
  const cx = r.x + r.w / 2;
  const w = Math.max(r.w, 5);
  ctx.lineWidth = 2.5;
  ctx.strokeStyle = "#fff";
  ctx.strokeRect(cx - w / 2 - 1, r.y - 1, w + 2, r.h + 2);
  ctx.lineWidth = 1;
  ctx.strokeStyle = "#000";
  ctx.strokeRect(cx - w / 2 - 1, r.y - 1, w + 2, r.h + 2);
  ctx.fillStyle = "#000";
  ctx.beginPath();
  ctx.moveTo(cx, layout.top - 1);
  ctx.lineTo(cx - 4, layout.top - 7);
  ctx.lineTo(cx + 4, layout.top - 7);
  ctx.closePath();
  ctx.fill();
}

/** What moves: the selected row, the keyboard or pointer cell, and the token hovered elsewhere. */
export interface HeatmapMarks {
  selectedRow: number;
  cursor: { bx: number; by: number } | null;
  hoverToken: number | null;
}

export function drawHeatmapOverlay(
  ctx: CanvasRenderingContext2D,
  picture: HeatmapPicture,
  marks: HeatmapMarks,
  dpr: number,
): void {
  const { grid, rows, cols, layout } = picture;
  const { left, top, plotWidth, plotHeight } = layout;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, ctx.canvas.width, ctx.canvas.height);
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  if (marks.selectedRow >= 0 && marks.selectedRow < rows) {
    const y0 = top + (marks.selectedRow / rows) * plotHeight;
    const h = Math.max(plotHeight / rows, 2);
    ctx.strokeStyle = "#111827";
    ctx.lineWidth = 2;
    ctx.strokeRect(left - 1, y0 - 1, plotWidth + 2, h + 2);
    ctx.fillStyle = "#111827";
    ctx.beginPath();
    const cy = y0 + h / 2;
    ctx.moveTo(left - 6, cy);
    ctx.lineTo(left - 11, cy - 4);
    ctx.lineTo(left - 11, cy + 4);
    ctx.closePath();
    ctx.fill();
  }
  if (marks.hoverToken !== null && marks.hoverToken >= 0 && marks.hoverToken < cols) {
    const x = left + ((marks.hoverToken + 0.5) / cols) * plotWidth;
    ctx.strokeStyle = "rgba(17, 24, 39, 0.8)";
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(x, top);
    ctx.lineTo(x, top + plotHeight);
    ctx.stroke();
  }
  if (marks.cursor) {
    const r = binRect(layout, grid, rows, cols, marks.cursor.bx, marks.cursor.by);
    const w = Math.max(r.w, 3);
    const x = r.x + r.w / 2 - w / 2;
    ctx.lineWidth = 3;
    ctx.strokeStyle = "#fff";
    ctx.strokeRect(x - 1.5, r.y - 1.5, w + 3, r.h + 3);
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = "#000";
    ctx.strokeRect(x - 1.5, r.y - 1.5, w + 3, r.h + 3);
  }
}
