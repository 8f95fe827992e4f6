import { expect, it } from "vitest";
import { runsOn, STRATEGIES, STRATEGY_ALGORITHM, strategiesFor, strategyMenu } from "./strategy";

it("offers fused on webgpu only, the portable strategies everywhere", () => {
  expect(strategiesFor("webgpu")).toEqual(["per-token", "chunked", "two-level", "fused"]);
  for (const backend of ["webgl", "wasm", "cpu", "anything"]) {
    expect(strategiesFor(backend)).toEqual(["per-token", "chunked", "two-level"]);
  }
  expect(runsOn("fused", "wasm")).toBe(false);
  expect(runsOn("chunked", "wasm")).toBe(true);
});

it("builds a menu from the running backend, or the one asked for until one runs", () => {
  expect(strategyMenu("wasm", "webgpu", "chunked")).toEqual(["per-token", "chunked", "two-level"]);
  expect(strategyMenu(null, "webgpu", "chunked")).toContain("fused");
  expect(strategyMenu(null, "auto", "chunked")).toContain("fused");
  expect(strategyMenu(null, "cpu", "chunked")).not.toContain("fused");
  // The choice in effect stays visible even where it cannot run (the run then says why).
  expect(strategyMenu("wasm", "webgpu", "fused")).toEqual(STRATEGIES);
});

it("holds both fused layouts to the serial loop's bound (docs/ERROR_BOUND.md)", () => {
  expect(STRATEGY_ALGORITHM.fused).toBe("serial");
});
