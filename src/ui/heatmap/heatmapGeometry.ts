import type { PooledGrid } from "../../compute/playground/pooling";
import { PLOT_LEFT, PLOT_RIGHT } from "../charts/plotLayout";

/**
 * Where the heatmap draws: the plot sits PLOT_LEFT px from the left (row labels in the gutter) and
 * PLOT_RIGHT px before the right edge, like the charts, so tokens line up when they are stacked.
 */
export interface HeatmapLayout {
  /** Canvas size in CSS pixels. */
  width: number;
  height: number;
  /** Plot rectangle in CSS pixels. */
  left: number;
  top: number;
  plotWidth: number;
  plotHeight: number;
  /** The most bins the plot has device pixels for. */
  maxBinsX: number;
  maxBinsY: number;
}

/** Tallest the plot grows before rows get thinner, and the row heights allowed (CSS px). */
const TARGET_PLOT_HEIGHT = 256;
const MAX_ROW_HEIGHT = 20;
const MIN_ROW_HEIGHT = 2;
/** Room above the plot for chunk-boundary ticks and below it for the token axis. */
export const TOP_MARGIN = 8;
export const AXIS_HEIGHT = 20;

export function heatmapLayout(width: number, rows: number, dpr: number): HeatmapLayout {
  const plotWidth = Math.max(1, width - PLOT_LEFT - PLOT_RIGHT);
  const rowHeight = Math.min(
    MAX_ROW_HEIGHT,
    Math.max(MIN_ROW_HEIGHT, Math.floor(TARGET_PLOT_HEIGHT / Math.max(rows, 1))),
  );
  const plotHeight = Math.min(Math.max(rows, 1) * rowHeight, 2 * TARGET_PLOT_HEIGHT);
  return {
    width,
    height: TOP_MARGIN + plotHeight + AXIS_HEIGHT,
    left: PLOT_LEFT,
    top: TOP_MARGIN,
    plotWidth,
    plotHeight,
    maxBinsX: Math.floor(plotWidth * dpr),
    maxBinsY: Math.floor(plotHeight * dpr),
  };
}

/** A bin's rectangle in CSS pixels. */
export function binRect(layout: HeatmapLayout, grid: PooledGrid, rows: number, cols: number, bx: number, by: number) {
  const x0 = layout.left + (grid.colStart[bx] / cols) * layout.plotWidth;
  const x1 = layout.left + (grid.colStart[bx + 1] / cols) * layout.plotWidth;
  const y0 = layout.top + (grid.rowStart[by] / rows) * layout.plotHeight;
  const y1 = layout.top + (grid.rowStart[by + 1] / rows) * layout.plotHeight;
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}

/** The bin under a point (CSS px in the canvas), or null outside the plot. */
export function binAt(
  layout: HeatmapLayout,
  grid: PooledGrid,
  x: number,
  y: number,
): { bx: number; by: number } | null {
  const fx = (x - layout.left) / layout.plotWidth;
  const fy = (y - layout.top) / layout.plotHeight;
  if (fx < 0 || fx >= 1 || fy < 0 || fy >= 1) return null;
  return { bx: Math.floor(fx * grid.binsX), by: Math.floor(fy * grid.binsY) };
}

/**
 * The cell a bin stands for: its worst valid cell (what the colour shows), or its first cell when
 * the bin is all padding.
 */
export function cellOfBin(grid: PooledGrid, cols: number, bx: number, by: number): { row: number; token: number } {
  const worst = grid.worst[by * grid.binsX + bx];
  if (worst >= 0) return { row: Math.floor(worst / cols), token: worst % cols };
  return { row: grid.rowStart[by], token: grid.colStart[bx] };
}

/** The bin holding a cell. */
export function binOfCell(grid: PooledGrid, row: number, token: number): { bx: number; by: number } {
  const find = (starts: Int32Array, v: number) => {
    let lo = 0;
    let hi = starts.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= v) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  return { bx: find(grid.colStart, token), by: find(grid.rowStart, row) };
}

/** Keyboard cursor over bins: arrows move one bin, Home/End jump to the row's ends, PageUp/Down 10 % of it. */
export function moveCursor(
  grid: PooledGrid,
  cursor: { bx: number; by: number },
  key: string,
): { bx: number; by: number } | null {
  const page = Math.max(1, Math.round(grid.binsX / 10));
  const clampX = (bx: number) => Math.min(grid.binsX - 1, Math.max(0, bx));
  const clampY = (by: number) => Math.min(grid.binsY - 1, Math.max(0, by));
  switch (key) {
    case "ArrowLeft":
      return { bx: clampX(cursor.bx - 1), by: cursor.by };
    case "ArrowRight":
      return { bx: clampX(cursor.bx + 1), by: cursor.by };
    case "ArrowUp":
      return { bx: cursor.bx, by: clampY(cursor.by - 1) };
    case "ArrowDown":
      return { bx: cursor.bx, by: clampY(cursor.by + 1) };
    case "Home":
      return { bx: 0, by: cursor.by };
    case "End":
      return { bx: grid.binsX - 1, by: cursor.by };
    case "PageUp":
      return { bx: clampX(cursor.bx - page), by: cursor.by };
    case "PageDown":
      return { bx: clampX(cursor.bx + page), by: cursor.by };
    default:
      return null;
  }
}

/** Runs of consecutive bins in each bin row where `flag` is set, for drawing as few rectangles as possible. */
export function binRuns(grid: PooledGrid, flag: Uint8Array): Array<{ by: number; from: number; to: number }> {
  const runs: Array<{ by: number; from: number; to: number }> = [];
  forEachBinRun(grid, flag, (by, from, to) => runs.push({ by, from, to }));
  return runs;
}

/**
 * binRuns without the list: each run handed over as it is found. `flag` holds 0 or 1 a bin (the
 * grid's own flags). The bins between runs are skipped by the typed array's own search: a 512-row
 * picture is 570,000 bins a flag with a few hundred runs, and a loop over every bin of each flag was
 * most of the heatmap's draw.
 */
export function forEachBinRun(
  grid: PooledGrid,
  flag: Uint8Array,
  run: (by: number, from: number, to: number) => void,
): void {
  const { binsX } = grid;
  const end = Math.min(flag.length, binsX * grid.binsY);
  let at = flag.indexOf(1);
  while (at !== -1 && at < end) {
    const by = Math.floor(at / binsX);
    const rowEnd = Math.min(end, (by + 1) * binsX);
    let to = flag.indexOf(0, at);
    if (to === -1 || to > rowEnd) to = rowEnd;
    run(by, at - by * binsX, to - by * binsX);
    at = flag.indexOf(1, to);
  }
}

/**
 * Every bin edge's place in CSS pixels, as binRect computes it (the same arithmetic): `x[bx]` is bin
 * bx's left edge, `x[binsX]` the plot's right; `y` likewise. Computed once a draw, not twice a run.
 */
export function binEdges(layout: HeatmapLayout, grid: PooledGrid, rows: number, cols: number) {
  const x = new Float64Array(grid.binsX + 1);
  const y = new Float64Array(grid.binsY + 1);
  for (let bx = 0; bx <= grid.binsX; bx++) x[bx] = layout.left + (grid.colStart[bx] / cols) * layout.plotWidth;
  for (let by = 0; by <= grid.binsY; by++) y[by] = layout.top + (grid.rowStart[by] / rows) * layout.plotHeight;
  return { x, y };
}
