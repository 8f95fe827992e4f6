import { describe, expect, it } from "vitest";
import { row } from "../../testing/benchTestRows";
import { loopsPerSample, median, speedupOverPerToken } from "./benchStats";

describe("bench statistics", () => {
  it("takes the median of odd and even counts, NaN of none", () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it("repeats a run shorter than the timer's resolution until a sample lasts 5 ms", () => {
    expect(loopsPerSample(0.004)).toBe(1250);
    expect(loopsPerSample(2)).toBe(3);
    expect(loopsPerSample(40)).toBe(1);
    expect(loopsPerSample(0)).toBe(10_000);
  });

  it("measures the speedup against per-token on the same backend and size only", () => {
    const rows = [
      row("wasm", "per-token", 4096, 469),
      row("wasm", "chunked", 4096, 5.7),
      row("webgpu", "per-token", 4096, 659),
      row("webgpu", "chunked", 1024, 10),
      row("wasm", "two-level", 1024, 1),
    ];
    expect(speedupOverPerToken(rows[1], rows)).toBeCloseTo(469 / 5.7);
    expect(speedupOverPerToken(rows[0], rows)).toBeUndefined();
    expect(speedupOverPerToken(rows[3], rows)).toBeUndefined(); // no per-token at 1×1024 on webgpu
    expect(speedupOverPerToken(rows[4], rows)).toBeUndefined();
  });

  it("gives no speedup against a skipped or wrong per-token, nor for a wrong row", () => {
    const skipped = [row("wasm", "per-token", 4096, undefined), row("wasm", "chunked", 4096, 5)];
    expect(speedupOverPerToken(skipped[1], skipped)).toBeUndefined();
    const wrong = [row("wasm", "per-token", 4096, 400), row("wasm", "chunked", 4096, 5, { status: "wrong" })];
    expect(speedupOverPerToken(wrong[1], wrong)).toBeUndefined();
  });
});
