import * as tf from "@tensorflow/tfjs-core";
import { carryChainKernel, runsCarryChainKernel } from "./kernels/carryChainKernel";
import { sliceAlong } from "./sliceAlong";

/**
 * slime's serial carry across chunks (ALGORITHM.md §b.1 step 6) on the chunk ends alone:
 * `s_0 = 0`, `s_{c+1} = fl(end_c + fl(s_c·p))`, with `end_c` the local scan at chunk c's last
 * column and `p = d^C` the last carry power. That is the value slime reads back as `s_prev` from
 * the chunk it has just written, because only the last chunk may be partial and its carry is never
 * used. So the chain needs no slice of the data per chunk. Returns `[B, nChunks]`, the carry
 * entering each chunk, from the `[B, nChunks, C]` local scans and the `[C]` carry powers: one kernel
 * where one is registered (kernels/carryChainKernel.ts), else op by op. Call inside tf.tidy.
 */
export function carryChain(local: tf.Tensor3D, carryPowers: tf.Tensor1D): tf.Tensor2D {
  return runsCarryChainKernel() ? carryChainKernel(local, carryPowers) : chainByOps(local, carryPowers);
}

/** The chain as `[B, 1]`-sized tensor ops: a multiply then an add per chunk, as slime's two elementwise kernels. */
export function chainByOps(local: tf.Tensor3D, carryPowers: tf.Tensor1D): tf.Tensor2D {
  const [rows, nChunks, chunkSize] = local.shape;
  const zero = tf.zeros([rows, 1]) as tf.Tensor2D;
  if (nChunks === 1) return zero;
  const ends = tf.reshape<tf.Rank.R2>(tf.slice(local, [0, 0, chunkSize - 1], [rows, nChunks, 1]), [rows, nChunks]);
  const power = tf.slice(carryPowers, [chunkSize - 1], [1]);
  const carries: tf.Tensor[] = [zero];
  let carry: tf.Tensor = zero;
  // The last chunk's end never feeds a carry. sliceAlong: O(B) per chunk on every backend.
  for (let c = 0; c + 1 < nChunks; c++) {
    carry = tf.add(sliceAlong(ends, c), tf.mul(carry, power));
    carries.push(carry);
  }
  return tf.concat(carries, 1) as tf.Tensor2D;
}
