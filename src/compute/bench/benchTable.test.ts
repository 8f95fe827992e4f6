import { describe, expect, it } from "vitest";
import { row } from "../../testing/benchTestRows";
import { formatError, formatMs, formatSpeedup } from "./benchFormat";
import { errorTable, notes, sweepTable, timeTable } from "./benchTable";

describe("bench tables", () => {
  it("formats times, speedups and errors", () => {
    expect([0.0512, 0.46, 5.74, 469.4, 1782].map(formatMs)).toEqual([
      "0.051 ms",
      "0.46 ms",
      "5.7 ms",
      "469 ms",
      "1782 ms",
    ]);
    expect([2.74, 82.3, 357.2].map(formatSpeedup)).toEqual(["2.7×", "82×", "357×"]);
    expect([0, 2.44e-5, Number.NaN, undefined].map(formatError)).toEqual(["0", "2.4e-5", "NaN", "–"]);
  });

  it("prints one line per backend and strategy, the JS loop first, speedups over per-token", () => {
    const rows = [
      row("wasm", "per-token", 1024, 29),
      row("wasm", "per-token", 4096, 469),
      row("wasm", "chunked", 1024, 1),
      row("wasm", "chunked", 4096, 5.7),
      row("js", "js-loop", 1024, 0.06),
      row("js", "js-loop", 4096, 0.46),
    ];
    expect(timeTable(rows)).toEqual([
      "| backend                   | strategy  | 1×1024       | 8×4096       |",
      "| ------------------------- | --------- | ------------ | ------------ |",
      "| plain JS typed-array loop | serial    | 0.06 ms      | 0.46 ms      |",
      "| wasm                      | per-token | 29 ms        | 469 ms       |",
      "| wasm                      | chunked   | 1.0 ms (29×) | 5.7 ms (82×) |",
    ]);
  });

  it("says a per-token row was skipped, with its estimate, and why in the notes", () => {
    const rows = [
      row("wasm", "per-token", 4096, undefined, { estimatedMs: 9000, note: "skipped: about 9.0 s per run" }),
      row("wasm", "chunked", 4096, 5.7, { tensorsBefore: 3, tensorsAfter: 3 }),
    ];
    expect(timeTable(rows).slice(2)).toEqual([
      "| wasm    | per-token | skipped (≈ 9.0 s a run) |",
      "| wasm    | chunked   | 5.7 ms                  |",
    ]);
    expect(notes(rows)).toEqual([
      "- wasm per-token at 8×4096: skipped: about 9.0 s per run",
      "- tensors: none leaked (tf.memory().numTensors equal before and after each of the 1 rows)",
    ]);
  });

  it("marks a wrong row and a leak, and never gives either a speedup", () => {
    const rows = [
      row("webgpu", "per-token", 4096, 600),
      row("webgpu", "fused", 4096, 3, { status: "wrong", maxAbsError: 0.5, tensorsBefore: 2, tensorsAfter: 5 }),
    ];
    expect(timeTable(rows)[3]).toBe("| webgpu  | fused     | wrong (3.0 ms) |");
    expect(errorTable(rows)[3]).toBe("| webgpu  | fused     | 5.0e-1 ✗ |");
    expect(notes(rows)).toEqual(["- tensors: webgpu fused at 8×4096 left 3 (2 before, 5 after)"]);
  });

  it("prints the sweep with the best C in bold and in its own column", () => {
    const sweep = (c: number, ms: number) => row("wasm", "chunked", 4096, ms, { chunkSize: c, sweep: true });
    expect(sweepTable([sweep(8, 30), sweep(64, 4), sweep(128, 5)])).toEqual([
      "| backend | strategy | C = 8         | C = 64             | C = 128        | best C |",
      "| ------- | -------- | ------------- | ------------------ | -------------- | ------ |",
      "| wasm    | chunked  | 30 ms, 1.0e-6 | **4.0 ms, 1.0e-6** | 5.0 ms, 1.0e-6 | 64     |",
    ]);
    expect(sweepTable([])).toEqual([]);
  });
});
