import { expect, it } from "vitest";
import { runsOn, STRATEGY_ALGORITHM, strategiesFor, strategyOn } from "./strategies";

it("offers fused on webgpu only, the portable strategies everywhere", () => {
  expect(strategiesFor("webgpu")).toEqual(["per-token", "chunked", "two-level", "fused"]);
  for (const backend of ["webgl", "wasm", "cpu", "anything"]) {
    expect(strategiesFor(backend)).toEqual(["per-token", "chunked", "two-level"]);
  }
  expect(runsOn("fused", "wasm")).toBe(false);
  expect(runsOn("chunked", "wasm")).toBe(true);
});

it("runs chunked where the strategy asked for cannot run: fused on wasm, webgl or cpu", () => {
  for (const backend of ["wasm", "webgl", "cpu"]) {
    expect(strategyOn("fused", backend)).toEqual({ strategy: "chunked", replaced: true });
  }
  expect(strategyOn("fused", "webgpu")).toEqual({ strategy: "fused", replaced: false });
});

it("holds both fused layouts to the serial loop's bound (docs/ERROR_BOUND.md)", () => {
  expect(STRATEGY_ALGORITHM.fused).toBe("serial");
});
