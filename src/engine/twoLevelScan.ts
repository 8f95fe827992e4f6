import * as tf from "@tensorflow/tfjs-core";
import type { ScanTensors } from "./discountedScan";
import { chunkEndKernel, discountKernels } from "./discountKernels";
import { localScan } from "./localScan";

/**
 * The carry loop replaced by a second scan: the carries are themselves a discounted scan over the
 * chunk ends with discount d^C, done as one matMul against an n×n triangular kernel. The number
 * of dispatches is fixed whatever T is; the price is O(n²) memory and work for the kernel, and
 * carries summed in matMul order instead of chained (a few ulp apart from slime's).
 * Call inside tf.tidy.
 */
export function twoLevelScan(rewards: tf.Tensor2D, discount: number, chunkSize: number): ScanTensors {
  const [rows, cols] = rewards.shape;
  const { toeplitz, carryPowers } = discountKernels(discount, chunkSize);
  const { layout, local } = localScan(rewards, toeplitz, chunkSize);
  const { nChunks } = layout;

  // end_k = local scan at the chunk's last column; only the last chunk may be partial, and its
  // end is never used (row n-1 of the kernel is zero), so column C-1 is right for every chunk.
  const ends = tf.reshape<tf.Rank.R2>(tf.slice(local, [0, 0, chunkSize - 1], [rows, nChunks, 1]), [rows, nChunks]);
  const carriesIn = tf.matMul<tf.Tensor2D>(ends, chunkEndKernel(discount, chunkSize, nChunks));

  // G = local + carry·d^(k+1): the same multiply-then-add as slime's carry step, for all chunks.
  const carried = tf.mul(tf.reshape(carriesIn, [rows, nChunks, 1]), tf.reshape(carryPowers, [1, 1, chunkSize]));
  const global = tf.reshape<tf.Rank.R2>(tf.add(local, carried), [rows, nChunks * chunkSize]);
  const reversedReturns = layout.pad > 0 ? tf.slice(global, [0, 0], [rows, cols]) : global;
  return {
    returns: tf.reverse(reversedReturns, 1),
    localScans: local,
    carriesIn,
  };
}
