import { describe, expect, it } from "vitest";
import { formatShort, formatValue } from "./formatNumber";

describe("formatValue", () => {
  it("writes float32 with 9 and float64 with 17 significant digits", () => {
    expect(formatValue(Math.fround(0.1), "float32")).toBe("0.100000001");
    expect(formatValue(0.1, "float64")).toBe("0.10000000000000001");
    expect(formatValue(-0, "float64")).toBe("-0");
    expect(formatValue(Number.NaN, "float32")).toBe("NaN");
    expect(formatValue(Math.fround(1e30), "float32")).toBe("1.00000002e30");
  });
});

describe("formatShort", () => {
  it("keeps three digits and short exponents", () => {
    expect(formatShort(1.23456e-7)).toBe("1.23e-7");
    expect(formatShort(1e-7)).toBe("1e-7");
    expect(formatShort(0.5)).toBe("0.5");
    expect(formatShort(1234.5)).toBe("1230");
    expect(formatShort(2.5e6)).toBe("2.5e6");
    expect(formatShort(0)).toBe("0");
    expect(formatShort(Number.POSITIVE_INFINITY)).toBe("Infinity");
  });
});
