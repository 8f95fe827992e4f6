import { describe, expect, it } from "vitest";
import { row } from "../../testing/benchTestRows";
import { logTicks, sweepCharts, timeCharts } from "./benchChartData";

describe("bench chart data", () => {
  it("draws each backend's strategies against B·T, with the JS loop on every chart, valid rows only", () => {
    const rows = [
      row("js", "js-loop", 1024, 0.06),
      row("js", "js-loop", 4096, 0.46),
      row("wasm", "per-token", 1024, 29),
      row("wasm", "per-token", 4096, undefined),
      row("wasm", "chunked", 4096, 5.7),
      row("wasm", "chunked", 1024, 1),
      row("webgpu", "fused", 1024, 2, { status: "wrong" }),
      row("webgpu", "chunked", 1024, 10),
    ];
    const charts = timeCharts(rows);
    expect(charts.map((c) => c.backend)).toEqual(["wasm", "webgpu"]);
    expect(charts[0].series).toEqual([
      { strategy: "per-token", points: [{ cells: 1024, label: "1×1024", ms: 29 }] },
      {
        strategy: "chunked",
        points: [
          { cells: 1024, label: "1×1024", ms: 1 },
          { cells: 32768, label: "8×4096", ms: 5.7 },
        ],
      },
      {
        strategy: "js-loop",
        points: [
          { cells: 1024, label: "1×1024", ms: 0.06 },
          { cells: 32768, label: "8×4096", ms: 0.46 },
        ],
      },
    ]);
    expect(charts[1].series.map((s) => s.strategy)).toEqual(["chunked", "js-loop"]);
  });

  it("gives each sweep its points and best C", () => {
    const p = (c: number, ms: number, extra = {}) =>
      row("wasm", "chunked", 4096, ms, { chunkSize: c, sweep: true, maxAbsError: c * 1e-8, ...extra });
    const charts = sweepCharts([p(8, 30), p(64, 4), p(128, 5), p(256, 1, { status: "wrong" })]);
    expect(charts).toEqual([
      {
        backend: "wasm",
        size: "8×4096",
        series: [
          {
            strategy: "chunked",
            points: [
              { chunkSize: 8, ms: 30, error: 8e-8 },
              { chunkSize: 64, ms: 4, error: 64e-8 },
              { chunkSize: 128, ms: 5, error: 128e-8 },
            ],
            best: { chunkSize: 64, ms: 4, error: 64e-8 },
          },
        ],
      },
    ]);
  });

  it("puts log ticks on decades, or 1-2-5 steps over a short range", () => {
    expect(logTicks(0.05, 2000)).toEqual([0.01, 0.1, 1, 10, 100, 1000, 10000]);
    expect(logTicks(3, 40)).toEqual([1, 2, 5, 10, 20, 50, 100]);
    expect(logTicks(0, 1)).toEqual([]);
  });
});
