import * as tf from "@tensorflow/tfjs-core";
import { type ChunkLayout, chunkLayout } from "../core";
import { localScanKernel, runsLocalScanKernel } from "./kernels/localScanKernel";

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
 * (kernels/localScanKernel.ts says why). Call inside tf.tidy.
 */
export function localScan(rewards: tf.Tensor2D, toeplitz: tf.Tensor2D, chunkSize: number): LocalScan {
  const [rows, cols] = rewards.shape;
  const layout = chunkLayout(cols, chunkSize);
  if (runsLocalScanKernel()) return { layout, local: localScanKernel(rewards, toeplitz, layout.nChunks) };
  const reversed = tf.reverse(rewards, 1);
  if (toeplitz.shape[0] < chunkSize) {
    // One chunk longer than the row, with a kernel of only the rows that meet real tokens
    // (discountKernels): the padding would only multiply zeros.
    const local = tf.reshape<tf.Rank.R3>(tf.matMul(reversed, toeplitz), [rows, 1, chunkSize]);
    return { layout, local };
  }
  const padded =
    layout.pad > 0
      ? tf.pad(reversed, [
          [0, 0],
          [0, layout.pad],
        ])
      : reversed;
  const chunks = tf.reshape(padded, [rows * layout.nChunks, chunkSize]);
  const local = tf.reshape<tf.Rank.R3>(tf.matMul(chunks, toeplitz), [rows, layout.nChunks, chunkSize]);
  return { layout, local };
}
