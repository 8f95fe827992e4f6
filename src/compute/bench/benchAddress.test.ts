import { describe, expect, it } from "vitest";
import { benchSearch, benchSettingsFromSearch } from "./benchAddress";
import { DEFAULT_PANEL } from "./panelSettings";

describe("the bench view's address parameters", () => {
  it("reports NaN and ±Inf, naming the parameter, the value and what is accepted, and keeps the defaults", () => {
    const { settings, problems } = benchSettingsFromSearch("?view=bench&rows=NaN&tokens=inf&chunk=-Infinity&reps=1e9");
    expect(settings).toEqual(DEFAULT_PANEL);
    expect(problems).toEqual([
      'Address: rows=NaN: expected one of 1, 8, 64, got "NaN"; ignored',
      'Address: tokens=inf: expected one of 1024, 4096, 32768, got "inf"; ignored',
      'Address: chunk=-Infinity: expected one of 8, 16, 32, 64, 128, 256, 512, 1024, got "-Infinity"; ignored',
      'Address: reps=1e9: expected a whole number of runs from 5 to 100, got "1e9"; ignored',
    ]);
  });

  it("sets the panel from good values", () => {
    expect(benchSettingsFromSearch("?view=bench&rows=8&tokens=4096&chunk=64&reps=7")).toEqual({
      settings: { ...DEFAULT_PANEL, sizes: ["8×4096"], chunkSize: 64, reps: 7 },
      problems: [],
    });
    expect(benchSettingsFromSearch("?rows=64").settings.sizes).toEqual(["64×32768"]);
    expect(benchSettingsFromSearch("").problems).toEqual([]);
  });

  it("refuses a pair that is not one of the panel's sizes, and a parameter given twice with different values", () => {
    expect(benchSettingsFromSearch("?rows=1&tokens=4096").problems).toEqual([
      "Address: rows=1&tokens=4096: 1×4096 is not one of the panel's sizes (1×1024, 8×4096, 64×32768); ignored",
    ]);
    const twice = benchSettingsFromSearch("?chunk=64&chunk=128");
    expect(twice.settings.chunkSize).toBe(DEFAULT_PANEL.chunkSize);
    expect(twice.problems).toEqual(["Address: chunk appears 2 times with different values; ignored"]);
  });

  it("writes the panel back in the form it reads, keeping the other parameters", () => {
    const cases = [
      { ...DEFAULT_PANEL },
      { ...DEFAULT_PANEL, sizes: ["8×4096"], chunkSize: 64, reps: 7 },
      { ...DEFAULT_PANEL, sizes: ["1×1024", "64×32768"] },
      { ...DEFAULT_PANEL, sizes: ["1×1024", "8×4096", "64×32768"], reps: 100 },
      { ...DEFAULT_PANEL, sizes: [] },
    ];
    for (const settings of cases) {
      const search = benchSearch(settings, "?view=bench&rows=NaN&chunk=3");
      expect(search.startsWith("?view=bench")).toBe(true);
      expect(benchSettingsFromSearch(search)).toEqual({ settings, problems: [] });
    }
    expect(benchSearch(DEFAULT_PANEL, "?view=bench&reps=9")).toBe("?view=bench");
    expect(benchSearch({ ...DEFAULT_PANEL, reps: Number.NaN }, "?view=bench")).toBe("?view=bench");
    expect(benchSearch({ ...DEFAULT_PANEL, reps: 3 }, "?view=bench")).toBe("?view=bench");
    expect(benchSearch({ ...DEFAULT_PANEL, sizes: ["8×4096"], chunkSize: 64 }, "?view=bench")).toBe(
      "?view=bench&rows=8&tokens=4096&chunk=64",
    );
    expect(benchSearch({ ...DEFAULT_PANEL, sizes: ["1×1024", "64×32768"] }, "")).toBe("?sizes=1x1024%2C64x32768");
  });

  it("reads a list of sizes, refusing an unknown one and a list beside rows or tokens", () => {
    expect(benchSettingsFromSearch("?sizes=64x32768,1×1024").settings.sizes).toEqual(["1×1024", "64×32768"]);
    const unknown = benchSettingsFromSearch("?sizes=8x4096,2x2");
    expect(unknown.settings.sizes).toEqual(DEFAULT_PANEL.sizes);
    expect(unknown.problems).toEqual([
      'Address: sizes=8x4096,2x2: expected a comma-separated list of 1×1024, 8×4096, 64×32768 (or 8x4096), got "8x4096,2x2"; ignored',
    ]);
    const both = benchSettingsFromSearch("?rows=8&sizes=1x1024");
    expect(both.settings.sizes).toEqual(["8×4096"]);
    expect(both.problems).toHaveLength(1);
  });
});
