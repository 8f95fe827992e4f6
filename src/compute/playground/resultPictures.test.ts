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
});
