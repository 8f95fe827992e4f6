import { describe, expect, it } from "vitest";
import {
  chunkPowerUnderflows,
  float32ChunkPower,
  horizon,
  nearestStop,
  nextPowerOfTwo,
  parseChunkSize,
} from "./controlMath";

describe("control math", () => {
  it("finds the nearest γ stop and the horizon", () => {
    expect(nearestStop(0.99)).toBe(2);
    expect(nearestStop(0.9949)).toBe(3);
    expect(nearestStop(0.2)).toBe(0);
    expect(horizon(0.99)).toBeCloseTo(100, 10);
    expect(horizon(1)).toBe(Number.POSITIVE_INFINITY);
  });

  it("computes γ^C in float32 and flags its underflow", () => {
    expect(float32ChunkPower(0.5, 3)).toBe(0.125);
    // 0.9^1000 ≈ 1.7e-46 is below float32's smallest subnormal (1.4e-45).
    expect(float32ChunkPower(0.9, 1000)).toBe(0);
    expect(chunkPowerUnderflows(0.9, 1000)).toBe(true);
    expect(chunkPowerUnderflows(0.99, 128)).toBe(false);
    expect(chunkPowerUnderflows(0, 128)).toBe(false);
  });

  it("steps through powers of two from any chunk size", () => {
    expect(nextPowerOfTwo(128, 1)).toBe(256);
    expect(nextPowerOfTwo(128, -1)).toBe(64);
    expect(nextPowerOfTwo(100, 1)).toBe(128);
    expect(nextPowerOfTwo(100, -1)).toBe(64);
    expect(nextPowerOfTwo(1, -1)).toBe(1);
    expect(nextPowerOfTwo(4096, 1)).toBe(4096);
  });

  it("rejects a bad chunk size with its reason instead of clamping", () => {
    expect(parseChunkSize("96")).toEqual({ ok: true, value: 96 });
    expect(parseChunkSize("0")).toMatchObject({ ok: false, reason: expect.stringContaining("below 1") });
    expect(parseChunkSize("1.5")).toMatchObject({ ok: false, reason: expect.stringContaining("whole number") });
    expect(parseChunkSize("x")).toMatchObject({ ok: false, reason: expect.stringContaining("not a number") });
    expect(parseChunkSize("8192")).toMatchObject({ ok: false, reason: expect.stringContaining("4096") });
  });
});
