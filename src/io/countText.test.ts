import { describe, expect, it } from "vitest";
import { countText } from "./countText";

describe("countText", () => {
  it("writes integers as en-US does", () => {
    for (const n of [0, 7, 999, 1000, 65_536, 131_072, 2_097_152, 999_999_999, -1234, -12, 2 ** 53 - 1]) {
      expect(countText(n)).toBe(n.toLocaleString("en-US"));
    }
  });

  it("leaves what is not a safe integer as JavaScript writes it", () => {
    expect(countText(1.5)).toBe("1.5");
    expect(countText(Number.NaN)).toBe("NaN");
    expect(countText(Number.POSITIVE_INFINITY)).toBe("Infinity");
  });
});
