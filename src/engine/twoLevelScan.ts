import * as tf from "@tensorflow/tfjs-core";
import { chunkReturns } from "./chunkReturns";
import type { ScanTensors } from "./discountedScan";
import { chunkEndKernel, chunkEndPowers, type DiscountKernels, discountKernels, powerKernels } from "./discountKernels";
import { chunkCarries, runsChunkCarries } from "./fused/chunkCarries";
import { sliceAlong } from "./sliceAlong";

/** Up to this many chunks the second level is one pass over the chunk ends (an n×n kernel: 4 MB at 1024). */
export const MAX_DIRECT_CHUNKS = 1024;
/** Chunk size of the second level when it recurses. */
export const SECOND_LEVEL_CHUNK = 256;

import { localScan } from "./localScan";

/**
 * The carry loop replaced by a second scan: the carries are themselves a discounted scan over the
 * chunk ends with discount d^C, done as one matMul against an n×n triangular kernel (one small
 * kernel of the same sums on webgpu). The number of dispatches is fixed whatever T is up to
 * MAX_DIRECT_CHUNKS chunks (beyond, it grows with log T: see carriesIntoChunks), and carries are
 * summed in matMul order instead of chained (a few ulp apart from slime's).
 * Call inside tf.tidy.
 */
export function twoLevelScan(rewards: tf.Tensor2D, discount: number, chunkSize: number): ScanTensors {
  const kernels = discountKernels(discount, chunkSize, Math.min(chunkSize, rewards.shape[1]));
  return scanWithBase(rewards, Math.fround(discount), kernels, chunkSize);
}

/** The scan for a discount given by its exact (float64) base and the kernels built from it. */
function scanWithBase(rewards: tf.Tensor2D, base: number, kernels: DiscountKernels, chunkSize: number): ScanTensors {
  const cols = rewards.shape[1];
  const { toeplitz, carryPowers } = kernels;
  const { local } = localScan(rewards, toeplitz, chunkSize);
  const carriesIn = carriesIntoChunks(local, base ** chunkSize);

  return {
    returns: chunkReturns(local, carriesIn, carryPowers, cols),
    localScans: local,
    carriesIn,
  };
}

/**
 * The carry into each chunk: `carry[c] = Σ_{k<c} (d^C)^(c-1-k)·end_k`, where end_k is the local
 * scan at chunk k's last column (only the last chunk may be partial, and its end is never used:
 * row n-1 of the kernel is zero, so column C-1 is right for every chunk). On webgpu one small
 * kernel sums them (fused/chunkCarries.ts says why); elsewhere a matMul of the ends against the
 * n×n kernel. For many chunks the n×n kernel would not fit (C = 1 and T = 65536 would need 16 GB),
 * so the chunk ends are scanned the same two-level way, with discount d^C and chunks of
 * SECOND_LEVEL_CHUNK: the inclusive scan of the ends is the discounted-return scan of the reversed
 * ends, and the carries are that scan shifted by one chunk.
 */
function carriesIntoChunks(local: tf.Tensor3D, chunkBase: number): tf.Tensor2D {
  const [rows, nChunks, chunkSize] = local.shape;
  if (nChunks <= MAX_DIRECT_CHUNKS && runsChunkCarries())
    return chunkCarries(local, chunkEndPowers(chunkBase, nChunks));
  const ends = tf.reshape<tf.Rank.R2>(sliceAlong(local, chunkSize - 1, 2), [rows, nChunks]);
  if (nChunks <= MAX_DIRECT_CHUNKS) return tf.matMul(ends, chunkEndKernel(chunkBase, nChunks));
  const kernels = powerKernels(chunkBase, SECOND_LEVEL_CHUNK);
  const inclusive = tf.reverse(scanWithBase(tf.reverse(ends, 1), chunkBase, kernels, SECOND_LEVEL_CHUNK).returns, 1);
  return tf.pad(tf.slice(inclusive, [0, 0], [rows, nChunks - 1]), [
    [0, 0],
    [1, 0],
  ]);
}
