import { describe, expect, it } from "vitest";
import { formatExact } from "./formatExact";

describe("formatExact", () => {
  it("writes the shortest decimal that names the float32", () => {
    expect(formatExact(Math.fround(0.1), "float32")).toBe("0.1");
    expect(formatExact(Math.fround(1 / 3), "float32")).toBe("0.33333334");
    expect(formatExact(-1.25, "float32")).toBe("-1.25");
    expect(formatExact(Math.fround(1e30), "float32")).toBe("1e+30");
    for (const x of [Math.fround(Math.PI), Math.fround(-7.123456e-20), 2 ** -149]) {
      expect(Math.fround(Number(formatExact(x, "float32")))).toBe(x);
    }
  });

  it("writes float64 values as JavaScript does (shortest round trip) and keeps signs of zero", () => {
    expect(formatExact(0.1 + 0.2, "float64")).toBe("0.30000000000000004");
    expect(formatExact(-0, "float32")).toBe("-0");
    expect(formatExact(Number.NaN, "float64")).toBe("NaN");
  });
});
