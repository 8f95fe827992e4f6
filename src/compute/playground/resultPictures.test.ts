import { describe, expect, it } from "vitest";
import { pooledHere, presetResult } from "../../testing/playgroundRunKit";
import { ResultPictures } from "./resultPictures";

/** A 3 × 50 GAE run whose flat tokens 10–29 are masked. */
const computed = (id: number) => presetResult(id, { rows: 3, tokens: 50, seed: 5 }, [10, 30]);

describe("the playground worker's heatmap pictures", () => {
  const pictures = new ResultPictures();
  it("pools a kept result as the page would, after its tables were transferred", () => {
    const { result, lossMask } = computed(4);
    const ask = { maxBinsX: 9, maxBinsY: 3, metric: "ulp" as const, precision: "float32" as const, colourRow: -1 };
    const want = pooledHere(result, "advantages", lossMask, ask);
    pictures.keep(4, result, lossMask);
    // What the transfer leaves behind: the result's own tables are no longer readable here.
    for (const tables of [result.reference, result.chunked, result.bound])
      for (const a of Object.values(tables)) a.fill(0);
    const got = pictures.picture(4, "advantages", ask);
    expect(got?.grid).toEqual(want.grid);
    expect(got?.relFloor).toBe(want.relFloor);
    expect(got?.grid.masked.some((m) => m === 1)).toBe(true);
  });

  it("answers null for an older result or an output it does not have", () => {
    pictures.keep(5, computed(5).result);
    const ask = { maxBinsX: 4, maxBinsY: 2, metric: "abs" as const, precision: "float32" as const, colourRow: -1 };
    expect(pictures.picture(5, "returns", ask)).not.toBeNull();
    expect(pictures.picture(5, "token_level_rewards", ask)).toBeNull();
    pictures.keep(6, computed(6).result);
    expect(pictures.picture(5, "returns", ask)).toBeNull();
  });

  it("pools the next result's picture for the page's last ask, to send with it", () => {
    const ask = { maxBinsX: 5, maxBinsY: 3, metric: "rel" as const, precision: "float32" as const, colourRow: 1 };
    pictures.keep(7, computed(7).result);
    pictures.picture(7, "returns", ask);
    const { result } = computed(8);
    pictures.keep(8, result);
    const sent = pictures.expected();
    expect(sent?.output).toBe("returns");
    expect(sent?.ask).toEqual(ask);
    expect(sent?.picture.grid).toEqual(pictures.picture(8, "returns", ask)?.grid);
  });

  it("copies into the tables of the result kept before the last, never into those of the kept one", () => {
    const own = new ResultPictures();
    const run = (id: number) => presetResult(id, { rows: 3, tokens: 50, seed: id }, [10, 30]);
    const ask = { maxBinsX: 7, maxBinsY: 3, metric: "abs" as const, precision: "float32" as const, colourRow: -1 };
    own.keep(10, run(10).result);
    const kept = run(11);
    own.keep(11, kept.result, kept.lossMask); // its copies are written into result 10's tables
    const next = run(12);
    const copies = own.copies(next.result.reference);
    expect(copies.advantages).toEqual(next.result.reference.advantages);
    expect(copies.advantages).not.toBe(next.result.reference.advantages);
    // Result 11 is still kept and shown: its pictures are of its own values, whatever was copied since.
    expect(own.picture(11, "advantages", ask)?.grid).toEqual(
      pooledHere(kept.result, "advantages", kept.lossMask, ask).grid,
    );
    const tables = {
      reference: copies,
      chunked: own.copies(next.result.chunked),
      bound: own.copies(next.result.bound),
    };
    own.keep(12, { ...next.result, ...tables }, next.lossMask, true);
    expect(own.picture(12, "advantages", ask)?.grid).toEqual(
      pooledHere(next.result, "advantages", next.lossMask, ask).grid,
    );
    expect(own.picture(11, "advantages", ask)).toBeNull();
    // Result 13's copies go into result 11's tables, and 12's pictures stay its own.
    own.copies(run(13).result.reference);
    own.copies(run(13).result.bound);
    expect(own.picture(12, "returns", ask)?.grid).toEqual(pooledHere(next.result, "returns", next.lossMask, ask).grid);
  });

  it("measures into arrays made ready before the answer, reused from an older result, with the same picture", () => {
    const own = new ResultPictures();
    const run = (id: number) => presetResult(id, { rows: 3, tokens: 50, seed: id }, [10, 30]);
    const ask = { maxBinsX: 7, maxBinsY: 3, metric: "ulp" as const, precision: "float32" as const, colourRow: -1 };
    // Results 20 and 21 measured (their arrays dirty); 22 and 23 prepared as the worker does before an answer.
    for (const id of [20, 21, 22, 23]) {
      const { result, lossMask } = run(id);
      // Result 20 far off its bound: the flags of its arrays, which 22 reuses, are set almost everywhere.
      if (id === 20) for (const a of Object.values(result.chunked)) for (let i = 0; i < a.length; i++) a[i] += 1;
      const reference = own.copies(result.reference);
      own.prepareMeasure(reference, result.rows * result.cols);
      const tables = { reference, chunked: own.copies(result.chunked), bound: own.copies(result.bound) };
      own.keep(id, { ...result, ...tables }, lossMask, true);
      const want = pooledHere(result, "advantages", lossMask, ask);
      const got = id === 20 ? own.picture(id, "advantages", ask) : own.expected()?.picture;
      expect(got?.grid).toEqual(want.grid);
      expect(got?.pixels).toEqual(want.pixels);
      expect(got?.relFloor).toBe(want.relFloor);
      expect(got?.present.overBound).toBe(id === 20);
    }
  });
});
