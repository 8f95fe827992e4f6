import * as tf from "@tensorflow/tfjs-core";
import { carryChain } from "./carryChain";
import type { ScanResultTensors } from "./discountedScan";
import { discountKernels } from "./discountKernels";
import { localScan } from "./localScan";

/**
 * slime's `chunked_discounted_returns` on tensors (ALGORITHM.md §b.1): one matMul for every
 * chunk's local scan, then the serial carry chain across chunks on the chunk ends only
 * (carryChain.ts), then every output at once as `local + s_c·d^(k+1)`: a broadcast multiply then
 * an add, the same two separately rounded ops per element as slime's per-chunk loop, so the same
 * bits. Without `trace` the carries and local scans are not returned. Call inside tf.tidy.
 */
export function chunkedScan(
  rewards: tf.Tensor2D,
  discount: number,
  chunkSize: number,
  trace = true,
): ScanResultTensors {
  const [rows, cols] = rewards.shape;
  const { toeplitz, carryPowers } = discountKernels(discount, chunkSize, Math.min(chunkSize, cols));
  const { layout, local } = localScan(rewards, toeplitz, chunkSize);
  const { nChunks } = layout;
  const carriesIn = carryChain(local, carryPowers);
  const carried = tf.mul(tf.reshape(carriesIn, [rows, nChunks, 1]), tf.reshape(carryPowers, [1, 1, chunkSize]));
  const global = tf.reshape<tf.Rank.R2>(tf.add(local, carried), [rows, nChunks * chunkSize]);
  // The padded tail is cut after the add, where slime never computes it: it reaches no kept output.
  const reversedReturns = nChunks * chunkSize > cols ? tf.slice(global, [0, 0], [rows, cols]) : global;
  const returns = tf.reverse(reversedReturns, 1);
  if (!trace) return { returns };
  return { returns, localScans: local, carriesIn };
}
