import * as tf from "@tensorflow/tfjs-core";
import type { ScanResultTensors } from "./discountedScan";
import { discountKernels } from "./discountKernels";
import { localScan } from "./localScan";
import { sliceAlong } from "./sliceAlong";

/**
 * slime's `chunked_discounted_returns` on tensors (ALGORITHM.md §b.1): one matMul for every
 * chunk's local scan, then the serial carry loop, O(T/C) dispatches. The carry is a multiply
 * then an add, two separate roundings as in slime's two elementwise kernels. Without `trace` the
 * carries are not gathered into a tensor of their own. Call inside tf.tidy.
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
  const powers = tf.reshape(carryPowers, [1, chunkSize]);

  let carry: tf.Tensor2D = tf.zeros([rows, 1]);
  const scanned: tf.Tensor2D[] = [];
  const carries: tf.Tensor2D[] = [];
  for (let c = 0; c < nChunks; c++) {
    // Only the last chunk can be partial: its padded tail is cut before the carry is added.
    const valid = Math.min(chunkSize, cols - c * chunkSize);
    // One chunk at a time (sliceAlong: O(B·C) on every backend, where wasm's unstack copied all of `local` per chunk).
    const chunk = tf.reshape<tf.Rank.R2>(sliceAlong(local, c), [rows, chunkSize]);
    const part = valid === chunkSize ? chunk : tf.slice(chunk, [0, 0], [rows, valid]);
    const partPowers = valid === chunkSize ? powers : tf.slice(powers, [0, 0], [1, valid]);
    carries.push(carry);
    const global = tf.add(part, tf.mul(carry, partPowers)) as tf.Tensor2D;
    scanned.push(global);
    // s_prev is the chunk's last VALID element (only a partial last chunk makes this matter); the
    // last chunk's is never used.
    if (c + 1 < nChunks) carry = tf.slice(global, [0, valid - 1], [rows, 1]);
  }
  const reversedReturns = scanned.length === 1 ? scanned[0] : tf.concat(scanned, 1);
  const returns = tf.reverse(reversedReturns, 1);
  if (!trace) return { returns };
  return { returns, localScans: local, carriesIn: carries.length === 1 ? carries[0] : tf.concat(carries, 1) };
}
