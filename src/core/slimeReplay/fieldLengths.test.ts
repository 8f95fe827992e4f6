import { describe, expect, it } from "vitest";
import { FIELD_LENGTHS, lengthOf, tokensOf } from "./fieldLengths";

/** A sample whose fields throw when read: only lengths said without reading them can be asked. */
function unreadable(lengths: Record<string, number>): { lossMask: ArrayLike<number>; kl?: ArrayLike<number> } {
  const o = Object.defineProperties(
    {},
    {
      lossMask: { get: () => expect.unreachable("the loss mask was read"), enumerable: true },
      kl: { get: () => expect.unreachable("the KL was read"), enumerable: true },
    },
  );
  Object.defineProperty(o, FIELD_LENGTHS, { value: lengths });
  return o as { lossMask: ArrayLike<number>; kl?: ArrayLike<number> };
}

describe("lengthOf: a field's length without reading the field where the object says it", () => {
  it("reads FIELD_LENGTHS first, through the prototype too", () => {
    const s = unreadable({ lossMask: 7, kl: 7 });
    expect(tokensOf(s)).toBe(7);
    expect(lengthOf(s, "kl")).toBe(7);
    // inferSettings reads the KL through an object made on the sample.
    expect(lengthOf(Object.create(s), "kl")).toBe(7);
  });

  it("falls back on the field itself: its length, or undefined where it is absent or null", () => {
    const s: { lossMask: number[]; kl?: Float32Array | null; values?: Float64Array } = { lossMask: [1, 0, 1] };
    expect(tokensOf(s)).toBe(3);
    expect(lengthOf(s, "kl")).toBeUndefined();
    s.kl = null;
    expect(lengthOf(s, "kl")).toBeUndefined();
    s.kl = new Float32Array(0);
    expect(lengthOf(s, "kl")).toBe(0);
    const said = Object.assign(Object.create({ [FIELD_LENGTHS]: { lossMask: 3 } }), s);
    expect(lengthOf(said, "values")).toBeUndefined();
  });
});
