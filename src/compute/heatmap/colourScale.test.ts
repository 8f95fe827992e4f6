import { interpolateViridis } from "d3-scale-chromatic";
import { describe, expect, it } from "vitest";
import { colourOf, decadeLabel, decadeOf, decadeScale, MAX_DECADES, ZERO_COLOUR } from "./colourScale";

describe("decadeScale", () => {
  it("gives one swatch per decade of the domain", () => {
    const scale = decadeScale(3e-8, 2e-5);
    expect([scale.lo, scale.hi]).toEqual([-8, -4]);
    expect(scale.swatches).toHaveLength(4);
    expect(scale.clippedBelow).toBe(false);
    // Values in one decade share a colour; the next decade differs.
    expect(colourOf(scale, 1.1e-6)).toEqual(colourOf(scale, 9.9e-6));
    expect(colourOf(scale, 1.1e-6)).not.toEqual(colourOf(scale, 1.1e-5));
    expect(colourOf(scale, 0)).toBe(ZERO_COLOUR);
  });

  it("uses viridis, darkest for the smallest errors", () => {
    const scale = decadeScale(1e-9, 1e-5);
    const hex = interpolateViridis(1);
    const top = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
    expect(scale.swatches.at(-1)).toEqual(top);
    const lum = (c: readonly number[]) => c[0] + c[1] + c[2];
    expect(lum(scale.swatches[0])).toBeLessThan(lum(scale.swatches.at(-1) ?? [0, 0, 0]));
  });

  it("caps the number of decades and clips below", () => {
    const scale = decadeScale(1e-30, 1);
    expect(scale.hi - scale.lo).toBe(MAX_DECADES);
    expect(scale.clippedBelow).toBe(true);
    expect(colourOf(scale, 1e-30)).toEqual(scale.swatches[0]);
  });

  it("copes with an all-zero domain", () => {
    const scale = decadeScale(0, 0);
    expect(scale.swatches).toHaveLength(1);
  });
});

describe("decades", () => {
  it("puts powers of ten at the bottom of their decade", () => {
    for (let k = -20; k <= 20; k++) expect(decadeOf(10 ** k)).toBe(k);
    expect(decadeOf(9.999e-7)).toBe(-7);
  });

  it("labels ticks with numbers", () => {
    expect(decadeLabel(-7)).toBe("10⁻⁷");
    expect(decadeLabel(2)).toBe("100");
    expect(decadeLabel(12)).toBe("10¹²");
  });
});
