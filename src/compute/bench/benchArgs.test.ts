import { describe, expect, it } from "vitest";
import { parseBenchArgs } from "./benchArgs";
import { FULL_PLAN, QUICK_PLAN, SWEEP_CHUNKS } from "./benchPlan";

describe("bench command line", () => {
  it("defaults to the full plan", () => {
    const parsed = parseBenchArgs([]);
    expect(parsed).toEqual({ ok: true, options: { plan: FULL_PLAN, node: false, help: false } });
  });

  it("reads every option, in both --name value and --name=value forms", () => {
    const parsed = parseBenchArgs([
      "--backends",
      "wasm,webgpu",
      "--strategies=per-token,fused,js-loop",
      "--sizes",
      "2x64,8×4096",
      "--reps",
      "9",
      "--chunk=64",
      "--json",
      "out.json",
    ]);
    if (!parsed.ok) throw new Error(parsed.errors.join("\n"));
    expect(parsed.options.plan).toMatchObject({
      backends: ["wasm", "webgpu"],
      strategies: ["per-token", "fused", "js-loop"],
      sizes: [
        { rows: 2, cols: 64 },
        { rows: 8, cols: 4096 },
      ],
      reps: 9,
      chunkSize: 64,
    });
    expect(parsed.options.json).toBe("out.json");
  });

  it("--quick starts from the quick plan, which other options still change", () => {
    const parsed = parseBenchArgs(["--quick", "--backends", "cpu"]);
    if (!parsed.ok) throw new Error(parsed.errors.join("\n"));
    expect(parsed.options.plan).toEqual({ ...QUICK_PLAN, backends: ["cpu"] });
  });

  it("--sweep-chunk sweeps one size instead of the table", () => {
    const parsed = parseBenchArgs(["--sweep-chunk", "--sizes", "4x512", "--chunks", "64,16,16"]);
    if (!parsed.ok) throw new Error(parsed.errors.join("\n"));
    expect(parsed.options.plan.sizes).toEqual([]);
    expect(parsed.options.plan.sweep).toEqual({ size: { rows: 4, cols: 512 }, chunkSizes: [16, 64] });
    const plain = parseBenchArgs(["--sweep-chunk"]);
    expect(plain.ok && plain.options.plan.sweep).toEqual({ size: { rows: 8, cols: 4096 }, chunkSizes: SWEEP_CHUNKS });
  });

  it("names every bad option and value", () => {
    const parsed = parseBenchArgs([
      "--backends",
      "cuda,wasm",
      "--sizes",
      "8by4096,0x5,2x70000",
      "--reps",
      "3",
      "--frobnicate",
      "--quick",
      "--quick",
      "--chunks",
      "8",
      "--json",
    ]);
    expect(parsed).toEqual({
      ok: false,
      errors: [
        'unknown option "--frobnicate" (--help lists them)',
        "--quick is given twice",
        "--json needs a value",
        '--backends: "cuda" is not one of webgpu, webgl, wasm, cpu',
        '--sizes: "8by4096" is not BxT (rows x tokens, e.g. 8x4096)',
        "--sizes 0x5: rows must be 1 to 1024",
        "--sizes 2x70000: tokens must be 1 to 65536",
        '--reps: "3" must be a whole number from 5 to 1000',
        "--chunks only applies with --sweep-chunk",
      ],
    });
  });

  it("refuses a sweep over several sizes and a value that is another option", () => {
    const parsed = parseBenchArgs(["--sweep-chunk", "--sizes", "1x1024,8x4096", "--json", "--quick"]);
    expect(parsed.ok ? [] : parsed.errors).toEqual([
      "--json needs a value",
      "--sweep-chunk times one size; --sizes gives 2",
    ]);
  });
});
