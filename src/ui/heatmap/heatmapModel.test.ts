import { describe, expect, it } from "vitest";
import { BatchPictures, type PictureData } from "../../compute/heatmap/picture";
import { poolByMax } from "../../compute/playground/pooling";
import { type HeatmapModelInput, heatmapCell, heatmapModel } from "./heatmapModel";
import { binningNote } from "./legendModel";

/** 2 rows × 6 tokens: row 1 has 4 valid tokens; one masked hole, one NaN, one cell over its bound. */
function batch() {
  const reference = [1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 0, 0];
  const actual = [1, 2 + 1e-6, 3, 4 + 1e-3, 5, 6, 1e-9, Number.NaN, 2, 3, 7, 7];
  const lossMask = [1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1];
  const bound = new Array(12).fill(1e-4);
  return { rows: 2, cols: 6, lengths: [6, 4], reference, actual, lossMask, bound };
}

/** The model of a batch's picture, pooled as a picture source pools it. */
function modelOf(data: PictureData, maxBinsX: number, maxBinsY: number, input: HeatmapModelInput) {
  const colourRow = input.scope === "row" ? input.selectedRow : -1;
  const ask = { maxBinsX, maxBinsY, metric: input.metric, precision: input.precision, colourRow };
  const picture = new BatchPictures(data).picture(ask);
  return { relFloor: picture.relFloor, model: heatmapModel(input, picture) };
}

function model(metric: "abs" | "rel" | "ulp", maxBinsX = 6, scope: "batch" | "row" = "batch", selectedRow = 0) {
  const b = batch();
  const input = { hasBound: true, metric, precision: "float32" as const, scope, selectedRow };
  const { relFloor, model: m } = modelOf(b, maxBinsX, 10, input);
  return { b, relFloor, model: m };
}

describe("heatmapModel", () => {
  it("gives cells both scans lost and cells only the chunked scan lost a legend entry each", () => {
    const reference = [Number.NaN, 2, 3];
    const actual = [Number.NaN, Number.NaN, 3];
    const base = { rows: 1, cols: 3, lengths: [3], reference, actual };
    const input = { hasBound: false, metric: "abs" as const, precision: "float32" as const };
    const at = { ...input, scope: "batch" as const, selectedRow: 0 };
    const keys = modelOf(base, 3, 1, at).model.legend.keys;
    expect(keys.map((k) => k.label)).toEqual([
      "0 (exact)",
      "NaN / ∞ in both scans (dashed)",
      "NaN / ∞ in the chunked scan only (crossed)",
    ]);
  });

  it("never says 'none over bound' where a bound of NaN or ∞ checked nothing", () => {
    // Token 0 within its bound, token 1's bound NaN (from NaN inputs), token 2's infinite.
    const data = {
      rows: 1,
      cols: 3,
      lengths: [3],
      reference: [1, 2, 3],
      actual: [1, 2.5, 9],
      bound: [1, NaN, Infinity],
    };
    const at = { hasBound: true, metric: "abs" as const, precision: "float32" as const, scope: "batch" as const };
    const { model: m } = modelOf(data, 3, 1, { ...at, selectedRow: 0 });
    const labels = m.legend.keys.map((k) => k.label);
    expect(labels).toContain("none over a finite bound");
    expect(labels).toContain("bound NaN / ∞: not checked (dotted)");
    expect(labels).not.toContain("none over bound");
    expect(Array.from(m.grid.unchecked)).toEqual([0, 1, 1]);
    expect(heatmapCell({ ...data, chunkBoundaries: [0], precision: "float32", relFloor: 0 }, 0, 2)).toMatchObject({
      overBound: false,
      unchecked: true,
    });
  });

  it("names two libraries, not two scans, in a difference heatmap's title and keys", () => {
    // The shown library (reference) lost token 0 on its own; the compared one lost token 1.
    const reference = [Number.NaN, 2, 3];
    const actual = [1, Number.NaN, 3];
    const base = { rows: 1, cols: 3, lengths: [3], reference, actual };
    const sides = { reference: "OpenRLHF", actual: "verl", gap: "difference" as const };
    const at = {
      hasBound: false,
      metric: "abs" as const,
      precision: "float64" as const,
      scope: "batch" as const,
      selectedRow: 0,
      sides,
    };
    const legend = modelOf(base, 3, 1, at).model.legend;
    expect(legend.title).toBe("absolute difference |verl − OpenRLHF|");
    expect(legend.keys.map((k) => k.label)).toEqual([
      "0 (exact)",
      "NaN / ∞ in OpenRLHF (dashed)",
      "NaN / ∞ in verl only (crossed)",
    ]);
  });

  it("lists in the legend only the kinds of cell on screen, and the domain", () => {
    const { model: m } = model("abs");
    // The NaN is the chunked scan's only (the serial reference holds 1 there).
    expect(m.legend.keys.map((k) => k.kind)).toEqual([
      "zero",
      "chunkedOnlyNonFinite",
      "masked",
      "padding",
      "overBound",
      "worst",
    ]);
    expect(m.domain.max).toBeCloseTo(1e-3, 9);
    expect(m.legend.notes[0]).toMatch(/^colour domain \(batch\): 1e-9 … 0\.001$/);
    expect(m.legend.notes.some((n) => n.startsWith("each pixel"))).toBe(false);
    expect(m.legend.title).toMatch(/absolute/);
    // The ramp's ticks run decade by decade over the domain.
    expect(m.legend.ticks[0]).toBe("10⁻⁹");
    expect(m.legend.ticks.at(-1)).toBe("10⁻²");
    expect(m.worst).toBe(3);
  });

  it("takes the colour domain from the selected row when scoped to it", () => {
    const { model: m } = model("abs", 6, "row", 1);
    expect(m.domain).toEqual({ min: 1e-9, max: 1e-9 });
    expect(m.legend.notes[0]).toMatch(/\(row 1\)/);
  });

  it("says when pixels pool tokens, and explains the relative floor", () => {
    const { model: m } = model("rel", 4);
    expect(m.legend.notes).toContain("each pixel: max of 1–2 tokens, so no error hides");
    expect(m.legend.notes.some((n) => n.startsWith("denominator at least"))).toBe(true);
  });

  it("reads one cell in all three measures", () => {
    const { b, relFloor } = model("ulp");
    const cell = heatmapCell({ ...b, chunkBoundaries: [0, 2], precision: "float32", relFloor }, 0, 3);
    expect(cell).toMatchObject({
      row: 0,
      token: 3,
      chunk: 0,
      serial: 4,
      masked: true,
      padding: false,
      overBound: true,
    });
    expect(cell.abs).toBeCloseTo(1e-3, 9);
    expect(cell.ulp).toBe((Math.fround(4.001) - 4) / 2 ** -21);
    const pad = heatmapCell({ ...b, chunkBoundaries: [0, 2], precision: "float32", relFloor }, 1, 5);
    expect(pad).toMatchObject({ padding: true, overBound: false, chunk: 0 });
    expect(heatmapCell({ ...b, chunkBoundaries: [0, 2], precision: "float32", relFloor }, 0, 1).chunk).toBe(1);
  });
});

describe("binningNote", () => {
  it("counts tokens and rows per pixel", () => {
    const grid = poolByMax({
      rows: 8,
      cols: 100,
      lengths: new Array(8).fill(100),
      error: new Float64Array(800),
      maxBinsX: 25,
      maxBinsY: 4,
    });
    expect(binningNote(grid)).toBe("each pixel: max of 4 tokens × 2 rows, so no error hides");
    const flat = poolByMax({
      rows: 1,
      cols: 10,
      lengths: [10],
      error: new Float64Array(10),
      maxBinsX: 20,
      maxBinsY: 1,
    });
    expect(binningNote(flat)).toBeNull();
  });
});
