import { describe, expect, it } from "vitest";
import { BinKind, poolByMax } from "../playground/pooling";
import { colourOf, NON_FINITE_COLOUR, PADDING_COLOUR } from "./colourScale";
import { BatchPictures, binRowsOf, colourPicture } from "./picture";

describe("a picture's colours", () => {
  it("paints each bin in its kind's colour, or its value's decade, byte for byte", () => {
    // Row 1 is two tokens long: its other bins are padding. NaN at token 2 of row 0.
    const error = [0, 3e-7, Number.NaN, 2e-3, 5e-5, 1e-9, 0, 0];
    const grid = poolByMax({ rows: 2, cols: 4, lengths: [4, 2], error, maxBinsX: 4, maxBinsY: 2 });
    const picture = colourPicture(grid, 0, -1);
    for (let b = 0; b < 8; b++) {
      const kind = grid.kind[b];
      const want =
        kind === BinKind.padding
          ? PADDING_COLOUR
          : kind === BinKind.data
            ? colourOf(picture.scale, grid.value[b])
            : NON_FINITE_COLOUR;
      expect(Array.from(picture.pixels.subarray(4 * b, 4 * b + 4)), `bin ${b}`).toEqual([...want, 255]);
    }
    expect(picture.present).toEqual({
      nonFinite: true,
      chunkedOnlyNonFinite: false,
      padding: true,
      masked: false,
      overBound: false,
      unchecked: false,
    });
    expect(picture.worst).toBe(3);
    expect(picture.domain).toEqual({ min: 1e-9, max: 2e-3 });
  });

  it("takes the colour domain from the bins of the row asked for", () => {
    const error = [1e-3, 2e-3, 1e-8, 4e-8, 1e-5, 1e-6];
    const grid = poolByMax({ rows: 3, cols: 2, lengths: [2, 2, 2], error, maxBinsX: 2, maxBinsY: 3 });
    expect(binRowsOf(grid, 1)).toEqual([1, 2]);
    expect(binRowsOf(grid, 9)).toEqual([2, 3]);
    expect(colourPicture(grid, 0, 1).domain).toEqual({ min: 1e-8, max: 4e-8 });
    expect(colourPicture(grid, 0, -1).domain).toEqual({ min: 1e-8, max: 2e-3 });
  });

  it("measures a batch again when the measure changes, not when only the size does", () => {
    const data = { rows: 1, cols: 3, lengths: [3], reference: [1, 2, 4], actual: [1, 2.5, 4] };
    const pictures = new BatchPictures(data);
    const ask = { maxBinsX: 3, maxBinsY: 1, metric: "abs" as const, precision: "float64" as const, colourRow: -1 };
    expect(pictures.picture(ask).grid.value[1]).toBe(0.5);
    expect(pictures.picture({ ...ask, maxBinsX: 1 }).grid.value[0]).toBe(0.5);
    expect(pictures.picture({ ...ask, metric: "rel" }).grid.value[1]).toBe(0.25);
  });
});
