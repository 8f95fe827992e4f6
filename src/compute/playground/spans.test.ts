import { describe, expect, it } from "vitest";
import { maskedSpans, mergeGapFor, spansWhere } from "./spans";

describe("spans", () => {
  it("finds runs of masked tokens as [start, end)", () => {
    expect(maskedSpans([1, 0, 0, 1, 1, 0], 6)).toEqual([
      [1, 3],
      [5, 6],
    ]);
    expect(maskedSpans(undefined, 6)).toEqual([]);
    expect(maskedSpans([1, 1, 1], 3)).toEqual([]);
  });

  it("merges runs closer than the gap", () => {
    const flags = [0, 1, 0, 1, 0, 0, 0, 1];
    expect(spansWhere((t) => flags[t] === 1, flags.length, 2)).toEqual([
      [1, 4],
      [7, 8],
    ]);
  });

  it("merges what falls within two pixels", () => {
    expect(mergeGapFor(8192, 800)).toBe(21);
    expect(mergeGapFor(300, 800)).toBe(1);
  });
});
