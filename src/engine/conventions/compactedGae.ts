import * as tf from "@tensorflow/tfjs-core";
import { nextUnmaskedIndex, unmaskedPositions } from "../../core";
import type { Strategy } from "../../names/strategies";
import { gaeScan } from "../gaeScan";

/**
 * verl's GAE skips mask-0 tokens (their TD error is dropped, the next value and the running
 * advantage pass them unchanged): the same as plain GAE over each sequence's mask-1 tokens laid
 * side by side. The compacted batch is `[B, most mask-1 tokens]`, never larger than the input.
 */
export interface CompactLayout {
  /** Most mask-1 tokens of any sequence: the compacted batch's width. */
  width: number;
  /** `[B, width]`: the flattened `[B, T]` position of each mask-1 token (B·T, a 0, for padding). */
  gather: Int32Array;
  /**
   * `[B, T]`: where each token's advantage is in the flattened compacted batch: the next mask-1
   * token at or after it; B·width (a 0) when none follows.
   */
  scatter: Int32Array;
}

export function compactLayout(masks: ArrayLike<number>[], cols: number): CompactLayout {
  const rows = masks.length;
  const positions = masks.map(unmaskedPositions);
  const width = positions.reduce((most, p) => Math.max(most, p.length), 0);
  const gather = new Int32Array(rows * width).fill(rows * cols);
  const scatter = new Int32Array(rows * cols).fill(rows * width);
  masks.forEach((mask, b) => {
    positions[b].forEach((t, j) => {
      gather[b * width + j] = b * cols + t;
    });
    nextUnmaskedIndex(mask).forEach((j, t) => {
      if (j >= 0) scatter[b * cols + t] = b * width + j;
    });
  });
  return { width, gather, scatter };
}

/**
 * verl's GAE on float32 `[B, T]` tensors: rewards and values compacted, slime's batched GAE
 * (residuals, then the scan with discount γλ) on the compacted batch, advantages scattered back;
 * returns = A + V with every token's own value. Call inside tf.tidy.
 */
export function compactedGae(
  rewards: tf.Tensor2D,
  values: tf.Tensor2D,
  layout: CompactLayout,
  gamma: number,
  lambd: number,
  chunkSize: number,
  strategy: Strategy,
): { advantages: tf.Tensor2D; returns: tf.Tensor2D } {
  const [rows, cols] = rewards.shape;
  const { width } = layout;
  if (width === 0) {
    const advantages = tf.zeros([rows, cols]) as tf.Tensor2D;
    return { advantages, returns: tf.add(advantages, values) };
  }
  const gather = tf.tensor1d(layout.gather, "int32");
  const compact = (x: tf.Tensor2D) =>
    tf.reshape(tf.gather(tf.concat([tf.reshape(x, [rows * cols]), tf.zeros([1])]), gather), [
      rows,
      width,
    ]) as tf.Tensor2D;
  const gae = gaeScan(compact(rewards), compact(values), gamma, gamma * lambd, chunkSize, strategy);
  const flat = tf.concat([tf.reshape(gae.advantages, [rows * width]), tf.zeros([1])]);
  const advantages = tf.reshape(tf.gather(flat, tf.tensor1d(layout.scatter, "int32")), [rows, cols]) as tf.Tensor2D;
  return { advantages, returns: tf.add(advantages, values) };
}
