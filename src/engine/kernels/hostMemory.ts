/**
 * Float32 views on the memory of the two host backends, for kernels written in JavaScript: the
 * wasm backend's heap (no copy out of it, unlike readSync) and the cpu backend's arrays. Nothing
 * from either backend package is imported: the backend object comes from tfjs when a kernel runs.
 */
import type * as tf from "@tensorflow/tfjs-core";

/** The backends a host kernel is registered for. */
export const HOST_BACKENDS = ["wasm", "cpu"] as const;
export type HostBackendName = (typeof HOST_BACKENDS)[number];

interface WasmBackendLike {
  makeOutput(shape: number[], dtype: tf.DataType): tf.TensorInfo;
  typedArrayFromHeap(info: tf.TensorInfo): Float32Array;
}

interface CpuBackendLike {
  readSync(dataId: tf.DataId): Float32Array;
  makeTensorInfo(shape: number[], dtype: tf.DataType, values: Float32Array): tf.TensorInfo;
}

/**
 * Runs `compute` on views of the float32 inputs and a fresh float32 output of `shape`, and
 * returns the output. On wasm the output is allocated first: allocating can grow the heap, which
 * detaches every view taken before.
 */
export function runOnHost(
  backendName: HostBackendName,
  backend: unknown,
  inputs: tf.TensorInfo[],
  shape: number[],
  compute: (inputs: Float32Array[], out: Float32Array) => void,
): tf.TensorInfo {
  if (backendName === "wasm") {
    const wasm = backend as WasmBackendLike;
    const out = wasm.makeOutput(shape, "float32");
    compute(
      inputs.map((x) => wasm.typedArrayFromHeap(x)),
      wasm.typedArrayFromHeap(out),
    );
    return out;
  }
  const cpu = backend as CpuBackendLike;
  const values = new Float32Array(shape.reduce((a, b) => a * b, 1));
  compute(
    inputs.map((x) => cpu.readSync(x.dataId)),
    values,
  );
  return cpu.makeTensorInfo(shape, "float32", values);
}
