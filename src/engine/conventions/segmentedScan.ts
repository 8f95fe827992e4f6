import * as tf from "@tensorflow/tfjs-core";
import { cutSegments, segmentsByWidth } from "../../core";
import type { Strategy } from "../../names/strategies";
import { discountedScan } from "../discountedScan";

/**
 * Where verl's cut REINFORCE++ puts every token. A segment reset is the same as scanning the
 * segments apart, so the segments are re-batched as rows and scanned with the chosen strategy.
 * One padded batch of every segment would hold segments × longest segment values (a sequence with
 * a thousand one-token holes and one long turn: a thousand long rows), so segments are grouped by
 * width (the next power of two, segments.ts): each group is a `[count, width]` batch, together
 * fewer than twice the tokens, in at most ⌈log₂ T⌉ + 1 scans. Each segment is left-padded so its
 * chunks start at its last token, as when scanned alone.
 */
export interface SegmentLayout {
  groups: { width: number; count: number; gather: Int32Array }[];
  /** Per `[B, T]` position, where its return is in the groups' results laid end to end (the last index: a 0). */
  scatter: Int32Array;
  /** Values of all groups together. */
  gatheredValues: number;
}

/** Index tensors' contents: `gather` reads from the flattened `[B, T]` tokens with a 0 at index B·T. */
export function segmentLayout(masks: ArrayLike<number>[], cols: number): SegmentLayout {
  const rows = masks.length;
  const zeroSlot = rows * cols;
  let offset = 0;
  const placed: { row: number; start: number; length: number; at: number }[] = [];
  const groups = segmentsByWidth(cutSegments(masks)).map(({ width, segments }) => {
    const gather = new Int32Array(segments.length * width).fill(zeroSlot);
    segments.forEach(({ row, start, length }, k) => {
      const first = k * width + width - length;
      for (let j = 0; j < length; j++) gather[first + j] = row * cols + start + j;
      placed.push({ row, start, length, at: offset + first });
    });
    offset += gather.length;
    return { width, count: segments.length, gather };
  });
  const scatter = new Int32Array(rows * cols).fill(offset);
  for (const { row, start, length, at } of placed) {
    for (let j = 0; j < length; j++) scatter[row * cols + start + j] = at + j;
  }
  return { groups, scatter, gatheredValues: offset };
}

/**
 * verl's `G_t = r_t + γ·m_{t+1}·G_{t+1}` on a float32 `[B, T]` tensor of token rewards: each
 * width group gathered, scanned, and every return gathered back to its token. Call inside tf.tidy.
 */
export function segmentedReturns(
  tokens: tf.Tensor2D,
  layout: SegmentLayout,
  gamma: number,
  chunkSize: number,
  strategy: Strategy,
): tf.Tensor2D {
  const [rows, cols] = tokens.shape;
  const source = tf.concat([tf.reshape(tokens, [rows * cols]), tf.zeros([1])]);
  const scanned = layout.groups.map(({ width, count, gather }) => {
    const batch = tf.reshape(tf.gather(source, tf.tensor1d(gather, "int32")), [count, width]) as tf.Tensor2D;
    return tf.reshape(discountedScan(batch, gamma, chunkSize, strategy).returns, [count * width]);
  });
  const results = tf.concat([...scanned, tf.zeros([1])]);
  return tf.reshape(tf.gather(results, tf.tensor1d(layout.scatter, "int32")), [rows, cols]);
}
