/**
 * Time reversed and right-padded with zeros, `ScanlabReversePad`, for the local scan's matMul on
 * the host backends: `out[b, i] = x[b, T − 1 − i]` for i < T, 0 up to `width`. wasm's Reverse
 * took 4–5 ms for a 16 × 8192 batch (a copy of it 0.5–0.7 ms); this is one pass of JavaScript over
 * the backend's own memory, the pad included. Values are moved, never computed: the same bits.
 */
import * as tf from "@tensorflow/tfjs-core";
import { HOST_BACKENDS, type HostBackendName, runOnHost } from "./hostMemory";
import { registerOnce } from "./registerOnce";

export const REVERSE_PAD_KERNEL = "ScanlabReversePad";

export function reversePadOnHost(x: Float32Array, out: Float32Array, rows: number): void {
  const cols = x.length / rows;
  const width = out.length / rows;
  for (let b = 0; b < rows; b++) {
    const row = x.subarray(b * cols, (b + 1) * cols);
    const target = out.subarray(b * width, b * width + cols);
    target.set(row);
    target.reverse();
    out.fill(0, b * width + cols, (b + 1) * width);
  }
}

function hostKernel(backendName: HostBackendName): tf.KernelFunc {
  return ({ inputs, backend, attrs }) => {
    const x = inputs.x as tf.TensorInfo;
    const rows = x.shape[0];
    return runOnHost(backendName, backend, [x], [rows, attrs?.width as number], ([values], out) =>
      reversePadOnHost(values, out, rows),
    );
  };
}

/** Registers the kernel once for the host backends; a second call is a no-op. */
export function registerReversePadKernel(): void {
  for (const backendName of HOST_BACKENDS) registerOnce(REVERSE_PAD_KERNEL, backendName, hostKernel(backendName));
}

/** Whether the active backend runs the kernel (wasm and cpu). */
export function runsReversePadKernel(): boolean {
  return (HOST_BACKENDS as readonly string[]).includes(tf.getBackend());
}

/** `[B, width]`: each row of `[B, T]` reversed, then zeros (width ≥ T). */
export function reversePadKernel(x: tf.Tensor2D, width: number): tf.Tensor2D {
  registerReversePadKernel();
  return tf.engine().runKernel(REVERSE_PAD_KERNEL, { x }, { width }) as tf.Tensor2D;
}
