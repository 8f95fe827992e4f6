import * as tf from "@tensorflow/tfjs-core";
import { chunkOutputsKernel, runsChunkOutputsKernel } from "./kernels/chunkOutputsKernel";

/**
 * The returns of a chunked scan from its pieces (ALGORITHM.md §b.1 steps 6–7 after the carries):
 * `G = local[b, c, k] + s[b, c]·d^(k+1)` for every chunk at once, a multiply then an add (two
 * roundings, as slime's carry step), the padded tail cut and time turned back. One kernel where one
 * is registered (kernels/chunkOutputsKernel.ts), the same values; else the ops. `[B, T]`. Call
 * inside tf.tidy.
 */
export function chunkReturns(
  local: tf.Tensor3D,
  carriesIn: tf.Tensor2D,
  carryPowers: tf.Tensor1D,
  cols: number,
): tf.Tensor2D {
  if (runsChunkOutputsKernel()) return chunkOutputsKernel(local, carriesIn, carryPowers, cols);
  return returnsByOps(local, carriesIn, carryPowers, cols);
}

/** The same as four ops over the whole batch: multiply, add, slice, reverse. */
export function returnsByOps(
  local: tf.Tensor3D,
  carriesIn: tf.Tensor2D,
  carryPowers: tf.Tensor1D,
  cols: number,
): tf.Tensor2D {
  const [rows, nChunks, chunkSize] = local.shape;
  const carried = tf.mul(tf.reshape(carriesIn, [rows, nChunks, 1]), tf.reshape(carryPowers, [1, 1, chunkSize]));
  const global = tf.reshape<tf.Rank.R2>(tf.add(local, carried), [rows, nChunks * chunkSize]);
  // The padded tail is cut after the add, where slime never computes it: it reaches no kept output.
  const reversedReturns = nChunks * chunkSize > cols ? tf.slice(global, [0, 0], [rows, cols]) : global;
  return tf.reverse(reversedReturns, 1);
}
