import { describe, expect, it } from "vitest";
import { type BenchPlan, FULL_PLAN, planCases, sideBySideGroups } from "./benchPlan";

const plan = (over: Partial<BenchPlan>): BenchPlan => ({ ...FULL_PLAN, ...over });
const names = (p: BenchPlan) => planCases(p).map((c) => `${c.backend} ${c.strategy} ${c.size.cols} ${c.chunkSize}`);

describe("bench plan", () => {
  it("runs the JS loop first, then backend by backend, size by size, per-token first", () => {
    const p = plan({
      backends: ["wasm", "webgpu"],
      sizes: [
        { rows: 1, cols: 64 },
        { rows: 2, cols: 8 },
      ],
    });
    expect(names(p)).toEqual([
      "js js-loop 64 128",
      "js js-loop 8 128",
      "wasm per-token 64 128",
      "wasm chunked 64 128",
      "wasm two-level 64 128",
      "wasm per-token 8 128",
      "wasm chunked 8 128",
      "wasm two-level 8 128",
      "webgpu per-token 64 128",
      "webgpu chunked 64 128",
      "webgpu two-level 64 128",
      "webgpu fused 64 128",
      "webgpu per-token 8 128",
      "webgpu chunked 8 128",
      "webgpu two-level 8 128",
      "webgpu fused 8 128",
    ]);
  });

  it("keeps only the strategies asked for, and fused only where the engine offers it", () => {
    const p = plan({ backends: ["cpu", "webgpu"], strategies: ["fused", "chunked"], sizes: [{ rows: 1, cols: 64 }] });
    expect(names(p)).toEqual(["cpu chunked 64 128", "webgpu chunked 64 128", "webgpu fused 64 128"]);
  });

  it("sweeps the chunk size only for strategies that have chunks", () => {
    const p = plan({
      backends: ["webgpu"],
      strategies: ["per-token", "two-level", "fused", "js-loop"],
      sizes: [],
      sweep: { size: { rows: 8, cols: 4096 }, chunkSizes: [8, 1024] },
    });
    expect(planCases(p).map((c) => `${c.strategy} ${c.chunkSize} ${c.sweep}`)).toEqual([
      "two-level 8 true",
      "two-level 1024 true",
    ]);
  });
});

describe("sideBySideGroups", () => {
  it("times the batched strategies of one backend and size together, everything else alone", () => {
    const plan: BenchPlan = {
      ...FULL_PLAN,
      backends: ["wasm", "webgpu"],
      sizes: [
        { rows: 1, cols: 1024 },
        { rows: 8, cols: 4096 },
      ],
      sweep: { size: { rows: 8, cols: 4096 }, chunkSizes: [64, 128] },
    };
    const groups = sideBySideGroups(planCases(plan)).map((g) =>
      g.map((c) => `${c.backend} ${c.strategy} ${c.size.cols}${c.sweep ? ` C${c.chunkSize}` : ""}`).join(" + "),
    );
    expect(groups).toEqual([
      "js js-loop 1024",
      "js js-loop 4096",
      "wasm per-token 1024",
      "wasm chunked 1024 + wasm two-level 1024",
      "wasm per-token 4096",
      "wasm chunked 4096 + wasm two-level 4096",
      "wasm chunked 4096 C64",
      "wasm chunked 4096 C128",
      "wasm two-level 4096 C64",
      "wasm two-level 4096 C128",
      "webgpu per-token 1024",
      "webgpu chunked 1024 + webgpu two-level 1024 + webgpu fused 1024",
      "webgpu per-token 4096",
      "webgpu chunked 4096 + webgpu two-level 4096 + webgpu fused 4096",
      "webgpu chunked 4096 C64",
      "webgpu chunked 4096 C128",
      "webgpu two-level 4096 C64",
      "webgpu two-level 4096 C128",
    ]);
  });
});
