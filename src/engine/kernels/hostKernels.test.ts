import "@tensorflow/tfjs-backend-wasm";
import * as tf from "@tensorflow/tfjs-core";
import { beforeAll, describe, expect, it } from "vitest";
import { normals, seeded, useCpuBackend } from "../../testing/engineTestKit";
import { returnsByOps } from "../chunkReturns";
import { chunkOutputsKernel, runsChunkOutputsKernel } from "./chunkOutputsKernel";
import { reversePadKernel, runsReversePadKernel } from "./reversePadKernel";

async function useWasmBackend(): Promise<void> {
  tf.env().set("WASM_HAS_MULTITHREAD_SUPPORT", false);
  if (!(await tf.setBackend("wasm")) || tf.getBackend() !== "wasm")
    throw new Error("the tfjs wasm backend did not start");
}

/** Normals with NaN, ±Inf and −0 sprinkled in (every 7th, 11th, 13th and 17th value). */
function awkward(n: number, seed: number): Float32Array {
  const data = Float32Array.from(normals(seeded(seed), n));
  for (let i = 3; i < n; i += 7) data[i] = Number.NaN;
  for (let i = 5; i < n; i += 11) data[i] = Number.POSITIVE_INFINITY;
  for (let i = 6; i < n; i += 13) data[i] = Number.NEGATIVE_INFINITY;
  for (let i = 2; i < n; i += 17) data[i] = -0;
  return data;
}

/** How many float32 bit patterns differ (a NaN's sign and payload included). */
function differingBits(a: Float32Array, b: Float32Array): number {
  expect(a.length).toBe(b.length);
  const x = new Uint32Array(a.buffer, a.byteOffset, a.length);
  const y = new Uint32Array(b.buffer, b.byteOffset, b.length);
  let differ = 0;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) differ++;
  return differ;
}

describe.each(["cpu", "wasm"])("the host kernels on %s", (backend) => {
  beforeAll(backend === "cpu" ? useCpuBackend : useWasmBackend);

  it("run there", () => {
    expect([runsReversePadKernel(), runsChunkOutputsKernel()]).toEqual([true, true]);
  });

  it.each([
    [3, 300, 384],
    [2, 256, 256],
    [4, 5, 5],
    [1, 1, 128],
  ])(
    "ReversePad moves the values of reverse and pad, bit for bit, for B = %i, T = %i, width %i",
    (rows, cols, width) => {
      const data = awkward(rows * cols, cols);
      const [kernel, ops] = tf.tidy(() => {
        const x = tf.tensor2d(data, [rows, cols], "float32");
        const reversed = tf.reverse(x, 1);
        const padded =
          width > cols
            ? tf.pad(reversed, [
                [0, 0],
                [0, width - cols],
              ])
            : reversed;
        return [reversePadKernel(x, width).dataSync() as Float32Array, padded.dataSync() as Float32Array];
      });
      expect(differingBits(kernel, ops)).toBe(0);
    },
  );

  it.each([
    ["a partial last chunk", 3, 300, 128],
    ["full chunks", 2, 256, 64],
    ["C > T", 3, 5, 128],
    ["C = 1", 2, 37, 1],
    ["C not a multiple of 4", 2, 130, 6],
  ])("ChunkOutputs gives the bits of multiply, add, slice and reverse with %s", (_, rows, cols, chunkSize) => {
    const nChunks = Math.ceil(cols / chunkSize);
    const local = awkward(rows * nChunks * chunkSize, 1);
    const carries = awkward(rows * nChunks, 2);
    const powers = Float32Array.from({ length: chunkSize }, (_, k) => Math.fround(0.97 ** (k + 1)));
    const [kernel, ops] = tf.tidy(() => {
      const l = tf.tensor3d(local, [rows, nChunks, chunkSize], "float32");
      const s = tf.tensor2d(carries, [rows, nChunks], "float32");
      const p = tf.tensor1d(powers, "float32");
      return [
        chunkOutputsKernel(l, s, p, cols).dataSync() as Float32Array,
        returnsByOps(l, s, p, cols).dataSync() as Float32Array,
      ];
    });
    expect(kernel.length).toBe(rows * cols);
    expect(differingBits(kernel, ops)).toBe(0);
    // Not vacuous: most outputs are finite numbers, not NaN on both sides.
    expect(kernel.filter(Number.isFinite).length).toBeGreaterThan(kernel.length / 4);
  });
});
