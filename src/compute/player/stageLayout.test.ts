import { describe, expect, it } from "vitest";
import { chunkWindow, FULL_TOKENS, stageLayout } from "./stageLayout";

describe("the stage layout", () => {
  it("puts the short chunk and its padding at the start in original time, chunk 0 at the end", () => {
    // T = 37, C = 8: 5 chunks, pad 3; reversed positions 37…39 are the padding before t = 0.
    const layout = stageLayout({ nChunks: 5, chunkSize: 8, view: "original", focusChunk: 0, width: 800 });
    expect(layout.bands.map((b) => b.chunk)).toEqual([4, 3, 2, 1, 0]);
    expect(layout.tokens.slice(0, 4).map((c) => c.i)).toEqual([39, 38, 37, 36]);
    expect(layout.tokens.at(-1)?.i).toBe(0);
    expect(layout.folds).toEqual([]);
    // Left to right, with a gap between chunks.
    const xs = layout.tokens.map((c) => c.x);
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
    expect(layout.tokens[8].x - layout.tokens[7].x).toBeCloseTo(layout.cell + layout.gap);
  });

  it("runs in slime's order in reversed time", () => {
    const layout = stageLayout({ nChunks: 3, chunkSize: 4, view: "reversed", focusChunk: 0, width: 600 });
    expect(layout.tokens.map((c) => c.i)).toEqual([...Array(12).keys()]);
    expect(layout.bands.map((b) => b.chunk)).toEqual([0, 1, 2]);
  });

  it("draws a window of chunks around the focus at large sizes and folds the rest", () => {
    // T = 4096, C = 16: 256 chunks, FULL_TOKENS / 16 = 4 drawn in full.
    expect(chunkWindow(256, 16, 100)).toEqual([100, 103]);
    expect(chunkWindow(256, 16, 102)).toEqual([100, 103]);
    expect(chunkWindow(256, 16, 104)).toEqual([104, 107]);
    expect(chunkWindow(256, 16, 0)).toEqual([0, 3]);
    expect(chunkWindow(256, 16, 255)).toEqual([252, 255]);
    expect(chunkWindow(4, 16, 3)).toEqual([0, 3]);
    expect(chunkWindow(32, 128, 7)).toEqual([7, 7]);
    expect(chunkWindow(10, 16, 9)).toEqual([6, 9]);
    const layout = stageLayout({ nChunks: 256, chunkSize: 16, view: "original", focusChunk: 101, width: 800 });
    expect(layout.tokens).toHaveLength(FULL_TOKENS);
    // Original time: the later chunks (higher t, lower index) are on the right.
    expect(layout.folds.map((f) => [f.firstChunk, f.lastChunk])).toEqual([
      [104, 255],
      [0, 99],
    ]);
    expect(layout.width).toBeLessThanOrEqual(800 + 1e-9);
  });

  it("never draws a cell wider than it is useful, nor narrower than 2 px", () => {
    expect(stageLayout({ nChunks: 1, chunkSize: 2, view: "original", focusChunk: 0, width: 900 }).cell).toBe(64);
    expect(stageLayout({ nChunks: 1, chunkSize: 4096, view: "original", focusChunk: 0, width: 900 }).cell).toBe(2);
  });

  it("folds to a window of chunks whose cells stay readable on a narrow stage, and keeps all of them when wide", () => {
    // 40 tokens in chunks of 8 on a phone's 222 px: one chunk in full (cells ≥ 12 px), the rest folded.
    const phone = stageLayout({ nChunks: 5, chunkSize: 8, view: "original", focusChunk: 2, width: 222, minCell: 12 });
    expect(phone.window).toEqual([2, 2]);
    expect(phone.cell).toBeGreaterThanOrEqual(12);
    expect(phone.folds).toHaveLength(2);
    expect(phone.width).toBeLessThanOrEqual(222 + 1e-9);
    // The tour's 4 chunks of 4: one chunk of cells wide enough to print their numbers.
    const tour = stageLayout({ nChunks: 4, chunkSize: 4, view: "original", focusChunk: 1, width: 222, minCell: 22 });
    expect(tour.window).toEqual([1, 1]);
    expect(tour.cell).toBeGreaterThanOrEqual(34);
    const wide = stageLayout({ nChunks: 5, chunkSize: 8, view: "original", focusChunk: 2, width: 560, minCell: 12 });
    expect(wide.window).toEqual([0, 4]);
    expect(wide.folds).toEqual([]);
  });
});
