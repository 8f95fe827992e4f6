import { expect, it } from "vitest";
import { discountPowers } from "../core";
import { useCpuBackend } from "../testing/engineTestKit";
import { chunkEndArray, discountKernels } from "./discountKernels";
import { HostKernelCache, hostKernelCache } from "./kernelCache";

it("builds the chunk-end kernel from n − 1 powers, value for value as n² powers would", () => {
  for (const [base, n] of [
    [Math.fround(0.99) ** 128, 37],
    [0, 5],
    [1, 4],
    [1.5, 9],
  ]) {
    const direct = new Float32Array(n * n);
    for (let k = 0; k < n; k++) for (let c = k + 1; c < n; c++) direct[k * n + c] = base ** (c - 1 - k);
    expect(chunkEndArray(base, n)).toEqual(direct);
  }
  expect(chunkEndArray(0.5, 1)).toEqual(new Float32Array(1));
});

it("builds the Toeplitz kernel row by row as the kernel row shifted, the clamped C > T kernel too", async () => {
  await useCpuBackend();
  for (const [d, C, rows] of [
    [0.99, 16, 16],
    [0, 8, 8],
    [0.9, 12, 5],
  ]) {
    const { kernelRow } = discountPowers(d, C, "float32");
    const got = await discountKernels(d, C, rows).toeplitz.data();
    for (let i = 0; i < rows; i++) {
      for (let j = 0; j < C; j++) expect(got[i * C + j]).toBe(j >= i ? kernelRow[j - i] : 0);
    }
  }
});

it("carries torch's non-Toeplitz kernel entries into the engine's M, as core's scan uses them", async () => {
  await useCpuBackend();
  // d = 0.5495936876730595, C = 37: torch's scalar tail rounds M[32][36] = d^4 unlike row 0.
  const d = 0.5495936876730595;
  const got = await discountKernels(d, 37).toeplitz.data();
  expect(got[32 * 37 + 36]).toBe(Math.fround(0.09123615));
  expect(got[31 * 37 + 35]).toBe(discountPowers(d, 37, "float32").kernelRow[4]);
  expect(got[31 * 37 + 35]).not.toBe(got[32 * 37 + 36]);
});

it("remembers host arrays, not tensors, least recently used first out within its byte budget", () => {
  const cache = new HostKernelCache(100);
  let builds = 0;
  const build = (n: number) => () => {
    builds++;
    return new Float32Array(n);
  };
  const a = cache.get("a", build(10));
  expect(cache.get("a", build(10))).toBe(a);
  cache.get("b", build(10));
  cache.get("a", build(10)); // a is now the most recent
  cache.get("c", build(10)); // 120 bytes: b goes
  expect(cache.size).toEqual({ entries: 2, bytes: 80 });
  expect(builds).toBe(3);
  cache.get("b", build(10));
  expect(builds).toBe(4);
  cache.get("huge", build(1000)); // above the budget: built, never kept
  expect(cache.size.entries).toBe(2);
  expect(hostKernelCache.maxBytes).toBe(64 * 2 ** 20);
});
