import * as tf from "@tensorflow/tfjs-core";
import type { Zeros } from "../core";

/** What readBack returns for each name: an array, or undefined where no tensor was given. */
export type ReadArrays<T> = { [K in keyof T]: undefined extends T[K] ? Float32Array | undefined : Float32Array };

/**
 * Reads device tensors back to float32 host arrays and disposes them, even when a read fails
 * (a lost WebGL context, a WebGPU device error), so a failed run leaks nothing either. The same
 * tensor may appear under two names (GAE's advantages are the scan's returns); it is read and
 * disposed once. A name whose tensor is absent (a trace nobody asked for) reads as undefined.
 */
export async function readBack<T extends Record<string, tf.Tensor | undefined>>(
  tensors: T,
  /** Where host backends' reads go (warmTables.ts); GPU backends' reads are tfjs's own arrays. */
  zeros?: Zeros,
): Promise<ReadArrays<T>> {
  const names = Object.keys(tensors) as (keyof T & string)[];
  const given: tf.Tensor[] = [];
  for (const name of names) {
    const tensor: tf.Tensor | undefined = tensors[name];
    if (tensor !== undefined) given.push(tensor);
  }
  const unique = [...new Set(given)];
  try {
    // All reads in flight together: on GPU backends each one waits for the queue anyway.
    const arrays = await Promise.all(unique.map((t) => readOne(t, zeros)));
    const byTensor = new Map(unique.map((t, i) => [t, arrays[i]]));
    const out = {} as Record<string, Float32Array | undefined>;
    for (const name of names) {
      const tensor: tf.Tensor | undefined = tensors[name];
      out[name] = tensor === undefined ? undefined : byTensor.get(tensor);
    }
    return out as ReadArrays<T>;
  } finally {
    for (const t of unique) t.dispose();
  }
}

interface WasmHeap {
  typedArrayFromHeap(info: tf.TensorInfo): Float32Array;
}

/**
 * One tensor's values. The wasm backend's data() slices its heap into new memory; with `zeros` the
 * heap is copied into an array the caller made ahead instead, which costs no page faults.
 */
function readOne(t: tf.Tensor, zeros: Zeros | undefined): Promise<Float32Array> {
  if (zeros && t.dtype === "float32" && tf.getBackend() === "wasm") {
    const heap = (tf.backend() as unknown as WasmHeap).typedArrayFromHeap(t);
    const out = zeros(EMPTY, heap.length);
    out.set(heap);
    return Promise.resolve(out);
  }
  return t.data() as Promise<Float32Array>;
}

const EMPTY = new Float32Array(0);
