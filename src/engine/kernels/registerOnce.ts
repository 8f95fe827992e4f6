import * as tf from "@tensorflow/tfjs-core";

/**
 * Registers a kernel for a backend unless one is registered already: the engine's own kernels
 * register on first use, and every later call (each run) is a no-op.
 */
export function registerOnce(kernelName: string, backendName: string, kernelFunc: tf.KernelFunc): void {
  if (!tf.getKernel(kernelName, backendName)) tf.registerKernel({ kernelName, backendName, kernelFunc });
}
