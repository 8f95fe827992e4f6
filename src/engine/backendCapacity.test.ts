import { describe, expect, it } from "vitest";
import {
  CPU_TENSOR_BYTES,
  formatBytes,
  formatCount,
  hostCapacity,
  MAX_TENSOR_BYTES,
  webglCapacity,
  webgpuCapacity,
} from "./backendCapacity";
import { largestChunk } from "./engineLimits";

const GiB = 2 ** 30;
const MiB = 2 ** 20;

describe("webgpu", () => {
  it("holds the smaller of maxBufferSize and maxStorageBufferBindingSize, less 64 KiB, per tensor", () => {
    // SwiftShader's limits, where a 16383×16384 kernel ran right and 16384×16384 read back as zeros.
    const swiftShader = webgpuCapacity({
      maxBufferSize: GiB,
      maxStorageBufferBindingSize: GiB,
      maxComputeWorkgroupsPerDimension: 65535,
    });
    expect(swiftShader.maxTensorValues).toBe((GiB - 65536) / 4);
    expect(swiftShader.maxTensorValues).toBeGreaterThanOrEqual(16383 * 16384);
    expect(swiftShader.maxTensorValues).toBeLessThan(16384 * 16384);
    expect(swiftShader.tensorLimit).toBe(
      "webgpu on this device allows at most 1023.94 MiB per buffer (maxBufferSize and maxStorageBufferBindingSize are 1 GiB, less a 64 KiB margin)",
    );
    expect(swiftShader.maxMatMulRows).toBe(32 * 65535);
    expect(swiftShader.matMulLimit).toContain("at most 2,097,120 rows");
  });

  it("gives chunk size 5791 at WebGPU's default limits", () => {
    const defaults = webgpuCapacity({
      maxBufferSize: 256 * MiB,
      maxStorageBufferBindingSize: 128 * MiB,
      maxComputeWorkgroupsPerDimension: 65535,
    });
    expect(defaults.tensorLimit).toContain("maxBufferSize 256 MiB, maxStorageBufferBindingSize 128 MiB");
    expect(largestChunk(100000, defaults.maxTensorValues)).toBe(5791);
  });

  it("never holds more than the engine's 1 GiB per tensor, whatever the device allows", () => {
    const big = webgpuCapacity({
      maxBufferSize: 16 * GiB,
      maxStorageBufferBindingSize: 4 * GiB,
      maxComputeWorkgroupsPerDimension: 65535,
    });
    expect(big.maxTensorValues).toBe(MAX_TENSOR_BYTES / 4);
    expect(big.tensorLimit).toBe(
      "the engine holds at most 1 GiB in one tensor (webgpu on this device would allow 4 GiB)",
    );
  });
});

describe("webgl", () => {
  it("holds maxTextureSize² values per tensor: 2^26 with textures of 8192", () => {
    const gl = webglCapacity(8192);
    expect(gl.maxTensorValues).toBe(2 ** 26);
    expect(gl.tensorLimit).toBe(
      "webgl here holds at most 67,108,864 float32 values (256 MiB) in one tensor (one value per texel of a texture of at most 8192×8192)",
    );
    // What ran on SwiftShader (8192×8192 and 4096×16384) fits; what failed (6000×16384) does not.
    expect(8192 * 8192).toBeLessThanOrEqual(gl.maxTensorValues);
    expect(4096 * 16384).toBeLessThanOrEqual(gl.maxTensorValues);
    expect(6000 * 16384).toBeGreaterThan(gl.maxTensorValues);
    expect(largestChunk(16384, gl.maxTensorValues)).toBe(8192);
    expect(largestChunk(4096, gl.maxTensorValues)).toBe(16384);
    expect(gl.maxMatMulRows).toBe(Number.POSITIVE_INFINITY);
  });

  it("is capped at 1 GiB per tensor on a GPU with huge textures", () => {
    expect(webglCapacity(32768).maxTensorValues).toBe(MAX_TENSOR_BYTES / 4);
  });
});

it("budgets 256 MiB per tensor on cpu and wasm", () => {
  for (const backend of ["cpu", "wasm"]) {
    const host = hostCapacity(backend);
    expect(host.maxTensorValues * 4).toBe(CPU_TENSOR_BYTES);
    expect(host.tensorLimit).toBe(`the engine's memory budget on ${backend} is 256 MiB per tensor`);
    expect(largestChunk(1e6, host.maxTensorValues)).toBe(8192);
  }
});

it("finds the largest chunk size whose min(C, T)×C kernel fits, never above core's 2^20", () => {
  expect(largestChunk(10, 100)).toBe(10);
  expect(largestChunk(5, 100)).toBe(20);
  expect(largestChunk(9, 100)).toBe(11);
  expect(largestChunk(1, 2 ** 26)).toBe(2 ** 20);
  for (const [cols, max] of [
    [3, 1000],
    [31, 1000],
    [1000, 1000],
    [7, 2 ** 26],
  ]) {
    const c = largestChunk(cols, max);
    expect(Math.min(c, cols) * c).toBeLessThanOrEqual(max);
    if (c < 2 ** 20) expect(Math.min(c + 1, cols) * (c + 1)).toBeGreaterThan(max);
  }
});

it("writes sizes the way the messages need them", () => {
  expect(formatBytes(GiB)).toBe("1 GiB");
  expect(formatBytes(16 * GiB)).toBe("16 GiB");
  expect(formatBytes(256 * MiB)).toBe("256 MiB");
  expect(formatBytes(GiB - 65536)).toBe("1023.94 MiB");
  expect(formatBytes(65536)).toBe("64 KiB");
  expect(formatBytes(12)).toBe("12 bytes");
  expect(formatCount(2097120)).toBe("2,097,120");
  expect(formatCount(999)).toBe("999");
});
