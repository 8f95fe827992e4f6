import { describe, expect, it } from "vitest";
import { type FieldVerdict, SLIME_DEFAULTS, type SlimeSettings } from "../../core";
import { replayDump } from "../../io/slimeDump";
import { SHARED_TRAIN_DUMPS } from "../../io/slimeDump/dumpFixtures";
import { openFixtureDump } from "../../testing/dumpTamperKit";
import { type SampleRow, sampleRows, worstFirst } from "./runModel";
import { rowReader, sampleRowAt, sampleTable } from "./sampleTable";

function expectSameTable(rows: SampleRow[]) {
  const table = sampleTable(rows);
  expect(table.count).toBe(rows.length);
  rows.forEach((row, i) => {
    expect(sampleRowAt(table, i), `sample ${i}`).toEqual(row);
  });
  expect(sampleRowAt(table, rows.length)).toBeUndefined();
  expect(sampleRowAt(table, -1)).toBeUndefined();
  expect(Array.from(table.order)).toEqual(worstFirst(rows).map((row) => row.index));
  for (const [place, sample] of table.order.entries()) expect(table.placeOf[sample]).toBe(place);
  expect(Array.from(table.failing)).toEqual(rows.filter((r) => r.verdict && !r.verdict.passed).map((r) => r.index));
}

const field = (over: Partial<FieldVerdict> = {}): FieldVerdict => ({
  passed: true,
  maxGap: 1e-7,
  scale: 2,
  worstToken: 3,
  worstGap: 1e-7,
  worstBound: 2e-7,
  failures: 0,
  unbounded: 0,
  wide: 0,
  cause: null,
  ...over,
});

describe("the samples table as columns (what the run worker sends the page)", () => {
  it("gives back every row of committed dumps, passing, failing and not replayed, and the worst-first order", () => {
    for (const file of [
      ...SHARED_TRAIN_DUMPS.map((d) => d.file),
      "variants/rpp_kl_unmasked.pt",
      "variants/grpo_kl_applied.pt",
    ]) {
      const dump = openFixtureDump(file);
      const settings = { ...SLIME_DEFAULTS, ...dump.settingsGuess } as SlimeSettings;
      const rows = sampleRows(dump, replayDump(dump, settings));
      expectSameTable(rows);
      expectSameTable(sampleRows(dump, null));
    }
  });

  it("keeps what a number column could lose: null, NaN, ±Infinity, -0, a missing KL, statuses and causes", () => {
    const rows: SampleRow[] = [
      { index: 0, rolloutPosition: null, length: 0, reward: Number.NaN, maskedShare: 0, status: null, verdict: null },
      {
        index: 1,
        rolloutPosition: 7,
        length: 12,
        reward: -0,
        maskedShare: 0.25,
        status: "truncated",
        verdict: {
          passed: false,
          advantages: field({ passed: false, maxGap: Number.POSITIVE_INFINITY, worstGap: Number.NaN, cause: "why" }),
          returns: field({ worstBound: Number.NEGATIVE_INFINITY }),
          kl: null,
          worstFraction: Number.POSITIVE_INFINITY,
          worstField: "advantages",
          worstToken: 5,
          nonFinite: true,
          severity: [2, 1e30, 0.5],
        },
      },
      {
        index: 2,
        rolloutPosition: 0,
        length: 3,
        reward: 1,
        maskedShare: 1,
        status: "truncated",
        verdict: {
          passed: true,
          advantages: field(),
          returns: field(),
          kl: field({ cause: "why" }),
          worstFraction: 0.5,
          worstField: "kl",
          worstToken: 0,
          nonFinite: false,
          severity: [0, 0.5, 0.5],
        },
      },
    ];
    expectSameTable(rows);
    const table = sampleTable(rows);
    expect(table.texts).toEqual(["truncated", "why"]);
    expect(Object.is(sampleRowAt(table, 1)?.reward, -0)).toBe(true);
    const read = rowReader(table);
    expect(read(2)).toBe(read(2));
  });

  it("refuses rows out of the dump's order", () => {
    const row: SampleRow = {
      index: 1,
      rolloutPosition: null,
      length: 1,
      reward: 0,
      maskedShare: 0,
      status: null,
      verdict: null,
    };
    expect(() => sampleTable([row])).toThrow("sample row 0 is sample 1");
  });
});
