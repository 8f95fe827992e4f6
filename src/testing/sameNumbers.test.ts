import { describe, expect, it } from "vitest";
import { expectSameNumbers } from "./sameNumbers";

describe("expectSameNumbers", () => {
  const result = () => ({
    ok: true,
    samples: [{ passed: true, rows: { a: Float64Array.of(1, Number.NaN, 0), b: Float32Array.of(2) } }],
    note: new Map([["k", 1]]),
  });

  it("passes what toEqual passes: NaN equals NaN, undefined properties ignored", () => {
    expectSameNumbers(result(), result());
    expectSameNumbers({ ...result(), extra: undefined }, result());
  });

  it("names the array and the first index that differs, as toEqual would fail it", () => {
    const changed = result();
    changed.samples[0].rows.a[2] = -0;
    expect(() => expectSameNumbers(changed, result(), "r")).toThrow("r: .samples[0].rows.a[2] is -0, expected 0");
    const longer = result();
    longer.samples[0].rows.b = Float32Array.of(2, 3);
    expect(() => expectSameNumbers(longer, result())).toThrow();
    const typed = result();
    (typed.samples[0].rows as Record<string, unknown>).a = Float32Array.of(1, Number.NaN, 0);
    expect(() => expectSameNumbers(typed, result())).toThrow();
  });

  it("fails on what lies outside the arrays, maps included", () => {
    const other = result();
    other.samples[0].passed = false;
    expect(() => expectSameNumbers(other, result())).toThrow();
    const map = result();
    map.note.set("k", 2);
    expect(() => expectSameNumbers(map, result())).toThrow();
  });
});
