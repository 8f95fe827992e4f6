import "@tensorflow/tfjs-backend-cpu";
import "@tensorflow/tfjs-backend-wasm";
import * as tf from "@tensorflow/tfjs-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normals, seededRandom } from "../core/testRandom";
import { chunkedScan } from "./chunkedScan";
import { perTokenScan } from "./perTokenScan";
import { sliceAlong } from "./sliceAlong";

const previous = tf.getBackend();

beforeAll(async () => {
  tf.env().set("WASM_HAS_MULTITHREAD_SUPPORT", false);
  expect(await tf.setBackend("wasm")).toBe(true);
});

afterAll(async () => {
  if (previous) await tf.setBackend(previous);
});

/** Elements the wasm backend copies out of its heap (readSync) while `run` runs. */
function elementsRead(run: () => void): number {
  const backend = tf.backend() as unknown as {
    readSync(dataId: object, start?: number, end?: number): ArrayLike<number>;
  };
  const readSync = backend.readSync;
  let read = 0;
  backend.readSync = function (this: unknown, dataId: object, start?: number, end?: number) {
    const values = readSync.call(this, dataId, start, end);
    read += values.length;
    return values;
  };
  try {
    run();
  } finally {
    backend.readSync = readSync;
  }
  return read;
}

describe("sliceAlong on wasm", () => {
  it("cuts the same values as tf.slice, for columns, for chunks and for every chunk's last column", () => {
    const random = seededRandom(3);
    const x2 = tf.tensor2d(Float32Array.from(normals(random, 3 * 7)), [3, 7]);
    const x3 = tf.tensor3d(Float32Array.from(normals(random, 2 * 4 * 5)), [2, 4, 5]);
    for (const index of [0, 3, 6]) {
      expect(tf.tidy(() => sliceAlong(x2, index)).arraySync()).toEqual(tf.slice(x2, [0, index], [3, 1]).arraySync());
    }
    expect(tf.tidy(() => sliceAlong(x3, 2)).arraySync()).toEqual(tf.slice(x3, [0, 2, 0], [2, 1, 5]).arraySync());
    expect(tf.tidy(() => sliceAlong(x3, 4, 2)).arraySync()).toEqual(tf.slice(x3, [0, 0, 4], [2, 4, 1]).arraySync());
    tf.dispose([x2, x3]);
  });

  it("keeps per-token and chunked linear in T: each step copies O(B) out of the heap, not the whole batch", () => {
    const rows = 4;
    const cols = 512;
    const rewards = tf.tensor2d(Float32Array.from(normals(seededRandom(5), rows * cols)), [rows, cols]);
    const before = tf.memory().numTensors;
    // A slice of `rewards` per token would read rows·cols elements each: 512 × 2048 in all.
    const perToken = elementsRead(() => tf.dispose(tf.tidy(() => perTokenScan(rewards, 0.99, false).returns)));
    expect(perToken).toBeLessThan(8 * rows * cols);
    const chunked = elementsRead(() => tf.dispose(tf.tidy(() => chunkedScan(rewards, 0.99, 8, false).returns)));
    expect(chunked).toBeLessThan(8 * rows * cols);
    expect(tf.memory().numTensors).toBe(before);
    rewards.dispose();
  });
});
