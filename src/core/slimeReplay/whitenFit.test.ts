import { describe, expect, it } from "vitest";
import { seededRandom } from "../seededRandom";
import { addWhitenBoundSums, emptyWhitenBoundSums, whitenStatsOf } from "./slimeWhitenBound";
import { fitWhitening, rawRowsOf } from "./whitenFit";

/** Three rows of raw advantages and their float32 whitening, as slime stores it. */
function batch() {
  const random = seededRandom(7);
  const raw = [40, 25, 60].map((n) => Float64Array.from({ length: n }, () => random() * 4 - 2));
  const errors = raw.map((row) => row.map((x) => Math.abs(x) * 2 ** -24));
  const masks = raw.map((row) => new Float64Array(row.length).fill(1));
  const stats = whitenStatsOf(addWhitenBoundSums(emptyWhitenBoundSums(), raw, errors, masks));
  const stored = raw.map((row) => Float32Array.from(row, (x) => Math.fround((x - stats.mean) * stats.rs)));
  return { raw, errors, stats, stored };
}

describe("fitWhitening's marks", () => {
  it("marks no token of a faithful whitening, each row as long as its sample", () => {
    const { raw, errors, stats, stored } = batch();
    const fit = fitWhitening(rawRowsOf(raw, errors), stored, stats);
    expect(fit?.offLine.map((row) => row.length)).toEqual([40, 25, 60]);
    expect(fit?.offLine.every((row) => row.every((x) => x === 0))).toBe(true);
    expect(fit?.worstOffLine).toBeNull();
  });

  it("marks the one edited token, in its own row only", () => {
    const { raw, errors, stats, stored } = batch();
    stored[1][7] += 1e-3;
    const fit = fitWhitening(rawRowsOf(raw, errors), stored, stats);
    expect(fit?.worstOffLine).toMatchObject({ sample: 1, token: 7 });
    expect(fit?.offLine.map((row) => [...row.keys()].filter((t) => row[t] === 1))).toEqual([[], [7], []]);
    // The rows nothing marks were never written: a second fit of the faithful batch marks nothing.
    const clean = batch();
    const again = fitWhitening(rawRowsOf(clean.raw, clean.errors), clean.stored, clean.stats);
    expect(again?.offLine.every((row) => row.every((x) => x === 0))).toBe(true);
  });
});
