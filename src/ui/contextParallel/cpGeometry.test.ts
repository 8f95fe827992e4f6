import { describe, expect, it } from "vitest";
import { cpLayout } from "../../core";
import { envelopePath, labelColor, rankColor, stripGeometry, valueScale } from "./cpGeometry";

describe("the panel's geometry", () => {
  it("cuts the strip into 2n chunks, each with its rank, and marks prompt, response and padding", () => {
    // 5 prompt + 300 response tokens on 3 ranks: padded to 306, 6 chunks of 51.
    const strip = stripGeometry(cpLayout(305, 300, 3), 600);
    expect(strip.chunks.map((c) => c.rank)).toEqual([0, 1, 2, 2, 1, 0]);
    expect(strip.chunks[5].x + strip.chunks[5].width).toBeCloseTo(600, 9);
    expect(strip.regions.map((r) => [r.kind, r.start, r.end])).toEqual([
      ["prompt", 0, 5],
      ["response", 5, 305],
      ["padding", 305, 306],
    ]);
    expect(strip.logits.x).toBeCloseTo((4 * 600) / 306, 9);
  });

  it("gives ranks distinct colours with readable labels", () => {
    const colours = Array.from({ length: 8 }, (_, r) => rankColor(r, 8));
    expect(new Set(colours).size).toBe(8);
    expect(labelColor(rankColor(0, 8))).toBe("#ffffff");
    expect(labelColor(rankColor(7, 8))).toBe("#111827");
  });

  it("keeps every spike in the envelope when tokens outnumber pixels", () => {
    const values = new Float32Array(1000);
    values[637] = 5;
    const y = valueScale([values], 0, 100);
    const path = envelopePath(values, 0, 1000, 0, 100, y);
    expect(path).toContain(",0.0"); // the spike reaches the top
    expect(path.match(/[ML]/g)?.length).toBe(101); // 100 columns, one with a vertical stroke
    // Fewer tokens than pixels: each token is a level one token wide.
    expect(envelopePath([1, 2], 0, 2, 0, 100, (v) => v)).toBe("M0.0,1.0L50.0,1.0L50.0,2.0L100.0,2.0");
  });
});
