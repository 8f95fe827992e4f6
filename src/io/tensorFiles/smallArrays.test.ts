import { describe, expect, it } from "vitest";
import { isSlab, SMALL_ARRAY_BYTES, smallArray } from "./smallArrays";

describe("smallArray", () => {
  it("cuts small arrays from one slab, each its own region, zeroed", () => {
    const a = smallArray("float32", 3);
    const b = smallArray("float32", 3);
    expect(a.buffer).toBe(b.buffer);
    expect(isSlab(a.buffer)).toBe(true);
    a.fill(7);
    expect(Array.from(b)).toEqual([0, 0, 0]);
    expect(b.byteOffset).toBeGreaterThanOrEqual(a.byteOffset + a.byteLength);
  });

  it("gives a large or empty array a buffer of its own", () => {
    const big = smallArray("float64", SMALL_ARRAY_BYTES / 8 + 1);
    expect(big.byteLength).toBe(big.buffer.byteLength);
    expect(isSlab(big.buffer)).toBe(false);
    expect(smallArray("int32", 0).length).toBe(0);
  });
});
