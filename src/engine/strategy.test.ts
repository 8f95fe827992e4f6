import { expect, it } from "vitest";
import { runsOn, STRATEGIES, STRATEGY_ALGORITHM, strategiesFor, strategyMenu, strategyOn } from "./strategy";

it("offers fused on webgpu only, the portable strategies everywhere", () => {
  expect(strategiesFor("webgpu")).toEqual(["per-token", "chunked", "two-level", "fused"]);
  for (const backend of ["webgl", "wasm", "cpu", "anything"]) {
    expect(strategiesFor(backend)).toEqual(["per-token", "chunked", "two-level"]);
  }
  expect(runsOn("fused", "wasm")).toBe(false);
  expect(runsOn("chunked", "wasm")).toBe(true);
});

it("builds a menu from the running backend, or the one asked for until one runs", () => {
  expect(strategyMenu("wasm", "webgpu", "chunked")).toEqual({
    options: ["per-token", "chunked", "two-level"],
    value: "chunked",
  });
  expect(strategyMenu(null, "webgpu", "chunked").options).toContain("fused");
  expect(strategyMenu(null, "auto", "fused")).toEqual({ options: STRATEGIES, value: "fused" });
  expect(strategyMenu(null, "cpu", "chunked").options).not.toContain("fused");
});

it("shows the strategy that runs where the chosen one cannot: fused on wasm, webgl or cpu is chunked", () => {
  for (const backend of ["wasm", "webgl", "cpu"]) {
    expect(strategyMenu(backend, "auto", "fused")).toEqual({ options: strategiesFor(backend), value: "chunked" });
    expect(strategyMenu(null, backend, "fused").value).toBe("chunked");
    expect(strategyOn("fused", backend)).toEqual({
      strategy: "chunked",
      notice: `Fused (WebGPU) does not run on ${backend} (its kernel is written for webgpu only): running Chunked instead`,
    });
  }
  expect(strategyOn("fused", "webgpu")).toEqual({ strategy: "fused", notice: null });
});

it("holds both fused layouts to the serial loop's bound (docs/ERROR_BOUND.md)", () => {
  expect(STRATEGY_ALGORITHM.fused).toBe("serial");
});
