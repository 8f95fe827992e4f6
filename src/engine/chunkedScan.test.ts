import "@tensorflow/tfjs-backend-wasm";
import * as tf from "@tensorflow/tfjs-core";
import { beforeAll, describe, expect, it } from "vitest";
import { chunkLayout } from "../core";
import { normals, seeded, useCpuBackend } from "../testing/engineTestKit";
import { chainByOps } from "./carryChain";
import { chunkedScan } from "./chunkedScan";
import { discountKernels } from "./discountKernels";
import { runsCarryChainKernel } from "./kernels/carryChainKernel";
import { sliceAlong } from "./sliceAlong";

/**
 * The chunked strategy as it was before the carries were chained on the chunk ends alone (commit
 * 636510f): reverse, pad, one matMul, then slime's loop, one slice, multiply and add of the data
 * per chunk. Kept here as the reference the engine must match bit for bit on the host backends.
 */
function perChunkLoop(rewards: tf.Tensor2D, discount: number, chunkSize: number) {
  const [rows, cols] = rewards.shape;
  const { toeplitz, carryPowers } = discountKernels(discount, chunkSize, Math.min(chunkSize, cols));
  const layout = chunkLayout(cols, chunkSize);
  const reversed = tf.reverse(rewards, 1);
  let local: tf.Tensor3D;
  if (toeplitz.shape[0] < chunkSize) {
    local = tf.reshape(tf.matMul(reversed, toeplitz), [rows, 1, chunkSize]);
  } else {
    const padded =
      layout.pad > 0
        ? tf.pad(reversed, [
            [0, 0],
            [0, layout.pad],
          ])
        : reversed;
    const chunks = tf.reshape(padded, [rows * layout.nChunks, chunkSize]);
    local = tf.reshape(tf.matMul(chunks, toeplitz), [rows, layout.nChunks, chunkSize]);
  }
  const powers = tf.reshape(carryPowers, [1, chunkSize]);
  let carry: tf.Tensor2D = tf.zeros([rows, 1]);
  const scanned: tf.Tensor2D[] = [];
  const carries: tf.Tensor2D[] = [];
  for (let c = 0; c < layout.nChunks; c++) {
    const valid = Math.min(chunkSize, cols - c * chunkSize);
    const chunk = tf.reshape<tf.Rank.R2>(sliceAlong(local, c), [rows, chunkSize]);
    const part = valid === chunkSize ? chunk : tf.slice(chunk, [0, 0], [rows, valid]);
    const partPowers = valid === chunkSize ? powers : tf.slice(powers, [0, 0], [1, valid]);
    carries.push(carry);
    const global = tf.add(part, tf.mul(carry, partPowers)) as tf.Tensor2D;
    scanned.push(global);
    if (c + 1 < layout.nChunks) carry = tf.slice(global, [0, valid - 1], [rows, 1]);
  }
  const returns = tf.reverse(scanned.length === 1 ? scanned[0] : tf.concat(scanned, 1), 1);
  return { returns, localScans: local, carriesIn: carries.length === 1 ? carries[0] : tf.concat(carries, 1) };
}

type Named = Record<"returns" | "localScans" | "carriesIn", Float32Array>;

function read(result: Partial<Record<keyof Named, tf.Tensor>>): Named {
  const out = {} as Named;
  for (const name of ["returns", "localScans", "carriesIn"] as const) {
    const tensor = result[name];
    if (!tensor) throw new Error(`no ${name}`);
    out[name] = tensor.dataSync() as Float32Array;
  }
  return out;
}

/** Indices whose float32 bit patterns differ, a NaN's sign and payload included. */
function differingBits(a: Float32Array, b: Float32Array): number[] {
  expect(a.length).toBe(b.length);
  const x = new Uint32Array(a.buffer, a.byteOffset, a.length);
  const y = new Uint32Array(b.buffer, b.byteOffset, b.length);
  const differ: number[] = [];
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) differ.push(i);
  return differ;
}

/** `rows × cols` standard normals, the same on every backend, with the given (flat index, value) overrides. */
function rewardsOf(rows: number, cols: number, overrides: [number, number][] = []): Float32Array {
  const data = Float32Array.from(normals(seeded(rows * 7919 + cols), rows * cols));
  for (const [index, value] of overrides) data[index] = value;
  return data;
}

/** The backends whose chain is the JavaScript kernel (kernels/carryChainKernel.ts). */
const HOST_BACKENDS = ["cpu", "wasm"] as const;

async function useWasmBackend(): Promise<void> {
  tf.env().set("WASM_HAS_MULTITHREAD_SUPPORT", false);
  if (!(await tf.setBackend("wasm")) || tf.getBackend() !== "wasm")
    throw new Error("the tfjs wasm backend did not start");
}

describe.each(HOST_BACKENDS)("the chunked strategy's carry chain on %s", (backend) => {
  beforeAll(backend === "cpu" ? useCpuBackend : useWasmBackend);

  it.each([
    ["a partial last chunk", 3, 300, 128, 0.99, []],
    ["full chunks only", 4, 256, 64, 0.97, []],
    ["one chunk longer than the row (C > T)", 3, 5, 128, 0.99, []],
    ["one token", 2, 1, 128, 0.9, []],
    ["chunks of one (C = 1)", 3, 37, 1, 0.95, []],
    ["d = 0", 3, 130, 16, 0, []],
    ["d = 1", 3, 130, 16, 1, []],
    ["a negative discount", 2, 70, 8, -0.7, []],
    [
      "NaN and ±Inf rewards",
      4,
      300,
      16,
      0.99,
      [
        [5, Number.NaN],
        [310, Number.POSITIVE_INFINITY],
        [650, Number.NEGATIVE_INFINITY],
        [900, Number.POSITIVE_INFINITY],
        [901, Number.NEGATIVE_INFINITY],
      ],
    ],
    [
      "NaN and ±Inf with d = 0",
      2,
      40,
      8,
      0,
      [
        [3, Number.NaN],
        [50, Number.POSITIVE_INFINITY],
      ],
    ],
    [
      "NaN and ±Inf with C = 1",
      2,
      20,
      1,
      0.5,
      [
        [3, Number.NaN],
        [30, Number.NEGATIVE_INFINITY],
      ],
    ],
    ["signed zeros", 2, 40, 8, 0.5, [...Array.from({ length: 40 }, (_, i): [number, number] => [i, -0])]],
  ] as [string, number, number, number, number, [number, number][]][])(
    "gives the per-chunk loop's bits, trace included, with %s",
    (_, rows, cols, chunkSize, discount, overrides) => {
      const data = rewardsOf(rows, cols, overrides);
      const [chained, looped, byOps] = tf.tidy(() => {
        const rewards = tf.tensor2d(data, [rows, cols], "float32");
        const loop = perChunkLoop(rewards, discount, chunkSize);
        const { carryPowers } = discountKernels(discount, chunkSize, Math.min(chunkSize, cols));
        return [
          read(chunkedScan(rewards, discount, chunkSize)),
          read(loop),
          chainByOps(loop.localScans as tf.Tensor3D, carryPowers).dataSync() as Float32Array,
        ];
      });
      for (const name of ["returns", "localScans", "carriesIn"] as const) {
        expect(differingBits(chained[name], looped[name]), name).toEqual([]);
      }
      // The op-by-op chain (webgl's) too: chunkedScan runs the kernel here.
      expect(differingBits(byOps, looped.carriesIn), "carries op by op").toEqual([]);
      // The comparison is not vacuous: the carries are not all zero unless d = 0 or there is one chunk.
      if (discount !== 0 && cols > chunkSize) expect(chained.carriesIn.some((s) => s !== 0)).toBe(true);
    },
  );

  it("runs the carry chain as one kernel there", () => {
    expect(runsCarryChainKernel()).toBe(true);
  });

  it("returns the same outputs without the trace", () => {
    const data = rewardsOf(3, 300);
    const [bare, traced] = tf.tidy(() => {
      const rewards = tf.tensor2d(data, [3, 300], "float32");
      return [
        chunkedScan(rewards, 0.99, 128, false).returns.dataSync() as Float32Array,
        chunkedScan(rewards, 0.99, 128).returns.dataSync() as Float32Array,
      ];
    });
    expect(differingBits(bare, traced)).toEqual([]);
  });
});
