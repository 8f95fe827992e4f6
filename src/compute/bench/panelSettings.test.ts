import { describe, expect, it } from "vitest";
import { SWEEP_CHUNKS } from "./benchPlan";
import { DEFAULT_PANEL, PANEL_SKIP_MS, panelPlan, toggled } from "./panelSettings";

describe("panel settings", () => {
  it("turns the defaults into the two smaller sizes on every backend, per-token skipped past 20 s", () => {
    const { plan, problems } = panelPlan(DEFAULT_PANEL);
    expect(problems).toEqual([]);
    expect(plan?.sizes).toEqual([
      { rows: 1, cols: 1024 },
      { rows: 8, cols: 4096 },
    ]);
    expect(plan?.backends).toEqual(["webgpu", "webgl", "wasm", "cpu"]);
    expect(plan?.skipOverMs).toBe(PANEL_SKIP_MS);
    expect(plan?.sweep).toBeUndefined();
  });

  it("adds the sweep at its size", () => {
    const { plan } = panelPlan({ ...DEFAULT_PANEL, sizes: [], sweep: true, sweepSize: "1×1024" });
    expect(plan?.sweep).toEqual({ size: { rows: 1, cols: 1024 }, chunkSizes: SWEEP_CHUNKS });
    expect(plan?.sizes).toEqual([]);
  });

  it("says what stops a run", () => {
    expect(panelPlan({ ...DEFAULT_PANEL, backends: [], strategies: [], sizes: [], reps: 4 }).problems).toEqual([
      "Choose at least one backend.",
      "Choose at least one strategy.",
      "Choose at least one size, or the chunk-size sweep.",
      "Runs per row must be a whole number from 5 to 100.",
    ]);
    // The JS loop needs no backend.
    expect(panelPlan({ ...DEFAULT_PANEL, backends: [], strategies: ["js-loop"] }).problems).toEqual([]);
  });

  it("toggles a choice in the order of all choices", () => {
    expect(toggled(["c", "a"], "b", true, ["a", "b", "c"])).toEqual(["a", "b", "c"]);
    expect(toggled(["a", "b"], "a", false, ["a", "b", "c"])).toEqual(["b"]);
  });
});
