import { describe, expect, it } from "vitest";
import { seededRandom } from "../seededRandom";
import { addWhitenBoundSums, emptyWhitenBoundSums, whitenStatsOf } from "./slimeWhitenBound";
import { fitWhitening, fitWhiteningLine, type RawRows, rawRowsOf, StrayMarker } from "./whitenFit";

/** The rows, counting the passes over them (a read of row 0 starts one). */
function counted(rows: RawRows): RawRows & { passes: number } {
  const out = { count: rows.count, passes: 0, row: (i: number) => rows.row(i) };
  out.row = (i) => {
    if (i === 0) out.passes++;
    return rows.row(i);
  };
  return out;
}

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

  it("refits only where the first line puts other tokens off it than it was fitted without", () => {
    // A faithful whitening: nothing strays, nothing is off the first line, so the refit would add the same
    // numbers: five passes over the rows (stray, the line's two, off the line, the last marks), not seven.
    const { raw, errors, stats, stored } = batch();
    const clean = counted(rawRowsOf(raw, errors));
    const fit = fitWhitening(clean, stored, stats);
    expect(clean.passes).toBe(5);
    // One edited token strays from the exact map and is off the first line alike: no refit either.
    stored[1][7] += 1e-3;
    const edited = counted(rawRowsOf(raw, errors));
    const editedFit = fitWhitening(edited, stored, stats);
    expect(edited.passes).toBe(5);
    expect(editedFit?.worstOffLine).toMatchObject({ sample: 1, token: 7 });
    expect(fit?.slope).toBeCloseTo(stats.rs, 6);
  });

  it("leaves its last pass to a caller's: the rows marked one by one in order give the same fit", () => {
    const { raw, errors, stats, stored } = batch();
    stored[2][11] += 1e-3;
    const whole = fitWhitening(rawRowsOf(raw, errors), stored, stats);
    const rows = counted(rawRowsOf(raw, errors));
    const pending = fitWhiteningLine(rows, stored, stats);
    expect(rows.passes).toBe(4);
    // Out of order is left to finish; in order, each row once, read while the caller's pass reads it.
    pending?.markRow(1);
    for (let i = 0; i < 3; i++) pending?.markRow(i);
    expect(rows.passes).toBe(5);
    const fit = pending?.finish();
    expect(rows.passes).toBe(5);
    expect(fit).toEqual(whole);
    expect(fit?.worstOffLine).toMatchObject({ sample: 2, token: 11 });
    // A pending fit finished at once marks every row itself.
    const alone = fitWhiteningLine(rawRowsOf(raw, errors), stored, stats)?.finish();
    expect(alone).toEqual(whole);
  });

  it("takes the stray marks made in another pass over the rows: one pass fewer, the same fit", () => {
    const { raw, errors, stats, stored } = batch();
    stored[0][3] += 1e-3;
    const whole = fitWhitening(rawRowsOf(raw, errors), stored, stats);
    const marker = new StrayMarker(
      stats,
      stored.map((row) => row.length),
    );
    for (let i = 0; i < raw.length; i++) marker.add(i, raw[i], stored[i], errors[i]);
    const rows = counted(rawRowsOf(raw, errors));
    const fit = fitWhiteningLine(rows, stored, stats, undefined, marker.result())?.finish();
    expect(rows.passes).toBe(4);
    expect(fit).toEqual(whole);
    expect(fit?.worstOffLine).toMatchObject({ sample: 0, token: 3 });
  });
});
