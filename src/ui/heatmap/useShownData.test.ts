import { describe, expect, it } from "vitest";
import { cellErrors } from "../../compute/playground/cellErrors";
import { BinKind } from "../../compute/playground/pooling";
import { type HeatmapData, measure, measureJob, sameData } from "./useShownData";

function data(rows: number, cols: number): HeatmapData {
  const n = rows * cols;
  const reference = Float64Array.from({ length: n }, (_, i) => Math.sin(i) * 10 ** (i % 7));
  const actual = Float32Array.from(reference);
  actual[3] = Number.NaN;
  const lengths = Int32Array.from({ length: rows }, (_, r) => cols - r);
  const bound = new Float64Array(n).fill(1e-6);
  return { rows, cols, lengths, reference, actual, bound, chunkBoundaries: [0], metric: "ulp", precision: "float32" };
}

describe("measureJob", () => {
  it("measures, then pools, a slice of rows per step and ends with the same picture as one pass", () => {
    const d = data(7, 10);
    // Two rows per step: four steps of measuring, then four of pooling.
    const job = measureJob(d, () => ({ maxBinsX: 5, maxBinsY: 7 }), 20);
    const steps = Array.from({ length: 7 }, () => job.step());
    expect(steps.every((s) => s === null)).toBe(true);
    const shown = job.step();
    expect(shown).not.toBeNull();
    const whole = cellErrors({ ...d });
    expect(Array.from(shown?.errors.error ?? [])).toEqual(Array.from(whole.error));
    expect(Array.from(shown?.errors.overBound ?? [])).toEqual(Array.from(whole.overBound));
    expect(shown?.errors.relFloor).toBe(whole.relFloor);
    expect(shown && sameData(shown, d)).toBe(true);
    expect(shown?.pooled.grid.binsX).toBe(5);
    // The NaN is the chunked side's only (the reference is finite there).
    expect(Array.from(shown?.pooled.grid.kind ?? [])).toContain(BinKind.chunkedOnlyNonFinite);
    expect(shown?.pooled).toEqual(measure(d, { maxBinsX: 5, maxBinsY: 7 }).pooled);
  });

  it("measures at least one row per step however wide the rows", () => {
    const job = measureJob(data(2, 50), () => ({ maxBinsX: 10, maxBinsY: 2 }), 1);
    for (let i = 0; i < 3; i++) expect(job.step()).toBeNull();
    expect(job.step()?.errors.error.length).toBe(100);
  });
});

describe("sameData", () => {
  it("tells a new result or a new metric from the data shown", () => {
    const d = data(2, 3);
    const shown = measure(d, { maxBinsX: 3, maxBinsY: 2 });
    expect(sameData(shown, { ...d })).toBe(true);
    expect(sameData(shown, { ...d, actual: Float32Array.from(d.actual) })).toBe(false);
    expect(sameData(shown, { ...d, metric: "abs" })).toBe(false);
  });
});
