import type * as tf from "@tensorflow/tfjs-core";

/**
 * Reads device tensors back to float32 host arrays and disposes them, even when a read fails
 * (a lost WebGL context, a WebGPU device error), so a failed run leaks nothing either. The same
 * tensor may appear under two names (GAE's advantages are the scan's returns); it is read and
 * disposed once.
 */
export async function readBack<K extends string>(tensors: Record<K, tf.Tensor>): Promise<Record<K, Float32Array>> {
  const names = Object.keys(tensors) as K[];
  const unique = [...new Set(names.map((name) => tensors[name]))];
  try {
    // All reads in flight together: on GPU backends each one waits for the queue anyway.
    const arrays = await Promise.all(unique.map((t) => t.data() as Promise<Float32Array>));
    const byTensor = new Map(unique.map((t, i) => [t, arrays[i]]));
    const out = {} as Record<K, Float32Array>;
    for (const name of names) out[name] = byTensor.get(tensors[name]) as Float32Array;
    return out;
  } finally {
    for (const t of unique) t.dispose();
  }
}
