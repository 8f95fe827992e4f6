import * as tf from "@tensorflow/tfjs-core";
import { chunkLayout } from "../../core";
import { FUSED_SCAN_KERNEL, FUSED_TRACE_KERNEL, registerFusedKernels } from "./fusedKernels";

registerFusedKernels();

/** The fused kernel's returns, and the chunk intermediates when they were asked for. */
export type FusedTensors = {
  returns: tf.Tensor2D;
  localScans?: tf.Tensor3D;
  carriesIn?: tf.Tensor2D;
};

/**
 * The whole scan in one WGSL dispatch (webgpu only; the caller checks the backend). With `trace`,
 * a second program writes each chunk's local scan and carry in slime's layout (reversed time,
 * `[B, nChunks, C]` and `[B, nChunks]`), cut out of one `[B, nChunks, C + 1]` tensor. Call inside
 * tf.tidy.
 */
export function fusedScan(rewards: tf.Tensor2D, discount: number, chunkSize: number, trace: boolean): FusedTensors {
  const returns = tf.engine().runKernel(FUSED_SCAN_KERNEL, { x: rewards }, { discount }) as tf.Tensor2D;
  if (!trace) return { returns };
  const [rows, cols] = rewards.shape;
  const { nChunks } = chunkLayout(cols, chunkSize);
  const packed = tf
    .engine()
    .runKernel(FUSED_TRACE_KERNEL, { x: rewards }, { discount, chunkSize, nChunks }) as tf.Tensor3D;
  return {
    returns,
    localScans: tf.slice(packed, [0, 0, 0], [rows, nChunks, chunkSize]),
    carriesIn: tf.reshape(tf.slice(packed, [0, 0, chunkSize], [rows, nChunks, 1]), [rows, nChunks]),
  };
}
