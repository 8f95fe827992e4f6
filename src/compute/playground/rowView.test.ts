import { describe, expect, it } from "vitest";
import type { PlaygroundResult } from "./playgroundRun";
import { maskTable, rowView } from "./rowView";

const result = {
  rows: 2,
  cols: 3,
  lengths: [3, 2],
  reference: { returns: new Float64Array([1, 2, 3, 4, 5, 0]) },
  chunked: { returns: new Float32Array([1, 2.5, 3, 4, 4, 0]) },
  serial32: { returns: new Float32Array([1, 2, 3.25, 4, 5, 0]) },
  bound: { returns: new Float64Array([9, 9, 9, 8, 8, 0]) },
} as unknown as PlaygroundResult;

describe("rowView", () => {
  it("cuts the row's valid tokens out of the padded tables with both errors", () => {
    const view = rowView(result, 1, "returns");
    expect(view?.length).toBe(2);
    expect(Array.from(view?.reference ?? [])).toEqual([4, 5]);
    expect(Array.from(view?.chunkedError ?? [])).toEqual([0, 1]);
    expect(Array.from(view?.serialError ?? [])).toEqual([0, 0]);
    expect(Array.from(rowView(result, 0, "returns")?.serialError ?? [])).toEqual([0, 0, 0.25]);
    expect(rowView(result, 0, "advantages")).toBeNull();
    expect(rowView(null, 0, "returns")).toBeNull();
  });

  it("pads the loss mask, ones where a row has none", () => {
    expect(Array.from(maskTable([{ length: 2, lossMask: [0, 1] }, { length: 3 }], 3))).toEqual([0, 1, 0, 1, 1, 1]);
  });
});
