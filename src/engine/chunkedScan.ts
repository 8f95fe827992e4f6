import type * as tf from "@tensorflow/tfjs-core";
import { carryChain } from "./carryChain";
import { chunkReturns } from "./chunkReturns";
import type { ScanResultTensors } from "./discountedScan";
import { discountKernels } from "./discountKernels";
import { localScan } from "./localScan";

/**
 * slime's `chunked_discounted_returns` on tensors (ALGORITHM.md §b.1): one matMul for every
 * chunk's local scan, then the serial carry chain across chunks on the chunk ends only
 * (carryChain.ts), then every output at once as `local + s_c·d^(k+1)` (chunkReturns.ts): a
 * multiply then an add, the same two separately rounded ops per element as slime's per-chunk loop,
 * so the same bits. Without `trace` the carries and local scans are not returned. Call inside tf.tidy.
 */
export function chunkedScan(
  rewards: tf.Tensor2D,
  discount: number,
  chunkSize: number,
  trace = true,
): ScanResultTensors {
  const cols = rewards.shape[1];
  const { toeplitz, carryPowers } = discountKernels(discount, chunkSize, Math.min(chunkSize, cols));
  const { local } = localScan(rewards, toeplitz, chunkSize);
  const carriesIn = carryChain(local, carryPowers);
  const returns = chunkReturns(local, carriesIn, carryPowers, cols);
  if (!trace) return { returns };
  return { returns, localScans: local, carriesIn };
}
