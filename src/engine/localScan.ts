import * as tf from "@tensorflow/tfjs-core";
import { type ChunkLayout, chunkLayout } from "../core";
import { localScanKernel, runsLocalScanKernel } from "./kernels/localScanKernel";
import { reversePadKernel, runsReversePadKernel } from "./kernels/reversePadKernel";

export interface LocalScan {
  layout: ChunkLayout;
  /** `[B, nChunks, C]`: `S_local[b,c,j] = Σ_{l≤j} x[b, cC+l]·d^(j-l)`, padded tail included. */
  local: tf.Tensor3D;
}

/**
 * Steps 1–5 of slime's scan (ALGORITHM.md §b.1), shared by the chunked and two-level strategies:
 * reverse time so the recurrence runs forwards, right-pad to a multiple of C (the zeros land
 * before t = 0, where they cannot reach a real output), and scan every chunk at once with one
 * matMul against the Toeplitz kernel. On webgpu one WGSL program does all of it
 * (kernels/localScanKernel.ts says why); on wasm and cpu the reversal and the padding are one pass
 * (kernels/reversePadKernel.ts). Call inside tf.tidy.
 */
export function localScan(rewards: tf.Tensor2D, toeplitz: tf.Tensor2D, chunkSize: number): LocalScan {
  const [rows, cols] = rewards.shape;
  const layout = chunkLayout(cols, chunkSize);
  if (runsLocalScanKernel()) return { layout, local: localScanKernel(rewards, toeplitz, layout.nChunks) };
  // A kernel of fewer rows than C means one chunk longer than the row (discountKernels): its
  // padding would only multiply zeros, so the row is scanned unpadded.
  const width = toeplitz.shape[0] < chunkSize ? cols : layout.nChunks * chunkSize;
  const reversed = runsReversePadKernel() ? reversePadKernel(rewards, width) : reversedPadded(rewards, width);
  const chunks = tf.reshape(reversed, [(rows * width) / toeplitz.shape[0], toeplitz.shape[0]]);
  const local = tf.reshape<tf.Rank.R3>(tf.matMul(chunks, toeplitz), [rows, layout.nChunks, chunkSize]);
  return { layout, local };
}

/** `[B, width]`: time reversed, then zeros (the ops ReversePad replaces on the host backends). */
function reversedPadded(rewards: tf.Tensor2D, width: number): tf.Tensor2D {
  const reversed = tf.reverse(rewards, 1);
  const pad = width - rewards.shape[1];
  return pad > 0
    ? tf.pad(reversed, [
        [0, 0],
        [0, pad],
      ])
    : reversed;
}
