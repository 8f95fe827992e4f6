import { describe, expect, it } from "vitest";
import { row } from "../../testing/benchTestRows";
import { bestChunk, sweepGroups } from "./bestChunk";

const point = (strategy: "chunked" | "two-level", chunkSize: number, ms: number, extra = {}) =>
  row("wasm", strategy, 4096, ms, { chunkSize, sweep: true, ...extra });

describe("best chunk size", () => {
  it("is the fastest correct point", () => {
    const points = [point("chunked", 8, 30), point("chunked", 64, 4), point("chunked", 128, 5)];
    expect(bestChunk(points)?.chunkSize).toBe(64);
  });

  it("never picks a fast wrong answer, and breaks ties by the smaller error", () => {
    const points = [
      point("chunked", 8, 1, { status: "wrong" }),
      point("chunked", 64, 4, { maxAbsError: 3e-6 }),
      point("chunked", 128, 4, { maxAbsError: 1e-6 }),
    ];
    expect(bestChunk(points)?.chunkSize).toBe(128);
    expect(bestChunk([point("chunked", 8, 1, { status: "failed" })])).toBeUndefined();
  });

  it("groups the sweep by backend and strategy, sorted by C, leaving the table's rows out", () => {
    const rows = [
      point("chunked", 64, 4),
      point("two-level", 8, 9),
      point("chunked", 8, 7),
      row("wasm", "chunked", 4096, 3),
    ];
    const groups = sweepGroups(rows);
    expect(groups.map((g) => [g.key, g.points.map((p) => p.chunkSize), g.best?.chunkSize])).toEqual([
      ["wasm chunked", [8, 64], 64],
      ["wasm two-level", [8], 8],
    ]);
  });
});
