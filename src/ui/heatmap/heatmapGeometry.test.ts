import { describe, expect, it } from "vitest";
import { poolByMax } from "../../compute/playground/pooling";
import { PLOT_LEFT, PLOT_RIGHT } from "../charts/plotLayout";
import { binAt, binEdges, binOfCell, binRect, binRuns, cellOfBin, heatmapLayout, moveCursor } from "./heatmapGeometry";

describe("heatmap geometry", () => {
  it("shares the charts' horizontal layout and asks for device pixels", () => {
    const layout = heatmapLayout(1000, 16, 2);
    expect(layout.left).toBe(PLOT_LEFT);
    expect(layout.plotWidth).toBe(1000 - PLOT_LEFT - PLOT_RIGHT);
    expect(layout.maxBinsX).toBe(2 * layout.plotWidth);
    expect(layout.plotHeight).toBe(16 * 16);
    expect(heatmapLayout(1000, 4, 1).plotHeight).toBe(80); // rows stop growing at 20 px
    expect(heatmapLayout(1000, 4096, 1).maxBinsY).toBeLessThan(4096); // so many rows pool
  });

  it("maps points to bins and bins back to the cell they show", () => {
    const cols = 8192;
    const error = new Float64Array(2 * cols);
    error[cols + 5000] = 1;
    const layout = heatmapLayout(1000, 2, 1);
    const grid = poolByMax({ rows: 2, cols, lengths: [cols, cols], error, maxBinsX: layout.maxBinsX, maxBinsY: 99 });
    const { bx, by } = binOfCell(grid, 1, 5000);
    const rect = binRect(layout, grid, 2, cols, bx, by);
    expect(binAt(layout, grid, rect.x + rect.w / 2, rect.y + rect.h / 2)).toEqual({ bx, by });
    expect(cellOfBin(grid, cols, bx, by)).toEqual({ row: 1, token: 5000 });
    expect(binAt(layout, grid, 5, 20)).toBeNull();
  });

  it("moves the keyboard cursor within the grid", () => {
    const grid = poolByMax({
      rows: 3,
      cols: 50,
      lengths: [50, 50, 50],
      error: new Float64Array(150),
      maxBinsX: 50,
      maxBinsY: 3,
    });
    expect(moveCursor(grid, { bx: 0, by: 0 }, "ArrowLeft")).toEqual({ bx: 0, by: 0 });
    expect(moveCursor(grid, { bx: 0, by: 0 }, "ArrowDown")).toEqual({ bx: 0, by: 1 });
    expect(moveCursor(grid, { bx: 3, by: 2 }, "ArrowDown")).toEqual({ bx: 3, by: 2 });
    expect(moveCursor(grid, { bx: 3, by: 2 }, "End")).toEqual({ bx: 49, by: 2 });
    expect(moveCursor(grid, { bx: 3, by: 2 }, "PageDown")).toEqual({ bx: 8, by: 2 });
    expect(moveCursor(grid, { bx: 3, by: 2 }, "x")).toBeNull();
  });

  it("groups flagged bins into runs per row", () => {
    const grid = poolByMax({ rows: 2, cols: 4, lengths: [4, 4], error: new Float64Array(8), maxBinsX: 4, maxBinsY: 2 });
    const runs = binRuns(grid, Uint8Array.from([1, 1, 0, 1, 0, 0, 0, 1]));
    expect(runs).toEqual([
      { by: 0, from: 0, to: 2 },
      { by: 0, from: 3, to: 4 },
      { by: 1, from: 3, to: 4 },
    ]);
  });

  it("finds the same runs as a look at every bin, runs at a row's ends and across rows included", () => {
    const grid = poolByMax({
      rows: 7,
      cols: 9,
      lengths: new Array(7).fill(9),
      error: new Float64Array(63),
      maxBinsX: 9,
      maxBinsY: 7,
    });
    let seed = 7;
    const random = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    for (const density of [0, 0.1, 0.5, 0.9, 1]) {
      const flag = Uint8Array.from({ length: 63 }, () => (random() < density ? 1 : 0));
      const want: { by: number; from: number; to: number }[] = [];
      for (let by = 0; by < 7; by++) {
        for (let bx = 0; bx < 9; bx++) {
          if (!flag[by * 9 + bx]) continue;
          const last = want[want.length - 1];
          if (last && last.by === by && last.to === bx) last.to = bx + 1;
          else want.push({ by, from: bx, to: bx + 1 });
        }
      }
      expect(binRuns(grid, flag)).toEqual(want);
    }
  });

  it("places every bin edge where binRect places its bins, to the bit", () => {
    const cols = 16013;
    const rows = 512;
    const layout = heatmapLayout(1280, rows, 1);
    const grid = poolByMax({
      rows,
      cols,
      lengths: new Int32Array(rows).fill(cols),
      error: new Float64Array(rows * cols),
      maxBinsX: layout.maxBinsX,
      maxBinsY: layout.maxBinsY,
    });
    const edges = binEdges(layout, grid, rows, cols);
    for (let by = 0; by < grid.binsY; by++) {
      for (let bx = 0; bx < grid.binsX; bx += 37) {
        const rect = binRect(layout, grid, rows, cols, bx, by);
        expect([edges.x[bx], edges.y[by]]).toEqual([rect.x, rect.y]);
        expect([edges.x[bx + 1] - edges.x[bx], edges.y[by + 1] - edges.y[by]]).toEqual([rect.w, rect.h]);
      }
    }
  });
});
