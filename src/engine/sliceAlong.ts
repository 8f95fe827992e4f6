import * as tf from "@tensorflow/tfjs-core";

/**
 * `x[:, index:index+1]` (every other axis kept whole; `along` picks another axis than 1): one
 * token's column of a `[B, T]` tensor, one chunk of a `[B, nChunks, C]` one, or every chunk's last
 * column, at a cost in the size of what it returns on every backend. tfjs-backend-wasm's Slice
 * copies its whole input out of the wasm heap before it cuts (`readSync`), so a loop of slices over the columns of a `[B, T]` tensor costs O(B·T) each and
 * O(B·T²) in all; its Gather copies only the rows it returns. The other backends slice in place
 * (a GPU program, or a view on the cpu), where an index tensor would only add an upload per call.
 * Both give the same values: a copy. Call inside tf.tidy.
 */
export function sliceAlong<R extends tf.Rank>(x: tf.Tensor<R>, index: number, along = 1): tf.Tensor<R> {
  if (tf.getBackend() === "wasm") {
    const at = tf.tensor1d([index], "int32");
    const part = tf.gather(x, at, along);
    at.dispose();
    return part;
  }
  const begin = x.shape.map((_, axis) => (axis === along ? index : 0));
  const size = x.shape.map((n, axis) => (axis === along ? 1 : n));
  return tf.slice(x, begin, size);
}
