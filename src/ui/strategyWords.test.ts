import { expect, it } from "vitest";
import { STRATEGIES, strategiesFor } from "../names/strategies";
import { noticeText, strategyMenu } from "./strategyWords";

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
    expect(noticeText({ type: "strategy-replaced", asked: "fused", strategy: "chunked", backend })).toBe(
      `Fused (WebGPU) does not run on ${backend} (its kernel is written for webgpu only): running Chunked instead`,
    );
  }
});

it("shows the engine's own notices as they are", () => {
  expect(noticeText({ type: "notice", message: "the worker stopped" })).toBe("the worker stopped");
});
