import { describe, expect, it } from "vitest";
import { FieldReader } from "./fieldReaders";

describe("FieldReader.asTokens", () => {
  const f = new FieldReader("dump.pt", "samples[0]", new Map());

  it("holds a loss mask's integers as float32 when asked to narrow: the same values, half the bytes", () => {
    const mask = f.asTokens("loss_masks", 4, Int32Array.of(0, 1, 1, 0), true);
    expect(mask).toBeInstanceOf(Float32Array);
    expect(Array.from(mask)).toEqual([0, 1, 1, 0]);
  });

  it("widens to float64 what float32 would round, and any integer field not narrowed", () => {
    const big = f.asTokens("loss_masks", 2, Int32Array.of(1, 2 ** 24 + 1), true);
    expect(big).toBeInstanceOf(Float64Array);
    expect(big[1]).toBe(2 ** 24 + 1);
    expect(f.asTokens("tokens", 2, Int32Array.of(0, 1))).toBeInstanceOf(Float64Array);
  });

  it("keeps float fields as read", () => {
    const values = Float32Array.of(0.5, 2);
    expect(f.asTokens("returns", 2, values, true)).toBe(values);
  });
});
