import { describe, expect, it } from "vitest";
import { everyPartDrawn } from "./useDrawnParts";

describe("everyPartDrawn", () => {
  const returns = new Float64Array(3);
  const error = new Float64Array(3);
  const heatmap = new Float64Array(6);
  const wanted = { returns, error, heatmap };

  it("needs each part to have drawn the very array it was handed, not an equal one", () => {
    expect(everyPartDrawn(wanted, { returns, error, heatmap })).toBe(true);
    expect(everyPartDrawn(wanted, { returns, error, heatmap: heatmap.slice() })).toBe(false);
    expect(everyPartDrawn(wanted, { returns, error: null, heatmap })).toBe(false);
  });

  it("counts a part with nothing to draw as drawn", () => {
    expect(everyPartDrawn({ returns: null, error: null, heatmap }, { returns: null, error: null, heatmap })).toBe(true);
    expect(everyPartDrawn({ returns: null, error: null, heatmap }, { returns, error, heatmap: null })).toBe(false);
  });
});
