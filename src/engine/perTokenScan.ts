import * as tf from "@tensorflow/tfjs-core";
import type { ScanResultTensors } from "./discountedScan";
import { sliceAlong } from "./sliceAlong";

/**
 * The loop slime's chunked scan replaced: `running = r[:, t] + d·running`, right to left, one
 * slice, multiply and add per token (O(T) dispatches of O(B) work each: sliceAlong says how on
 * wasm), kept as the baseline the other strategies are timed against. Its trace reads it as
 * chunks of one token: the local scan of a token is its reward, the carry into it the return
 * after it. Without `trace` neither is assembled (a concat of
 * T carries). Call inside tf.tidy.
 */
export function perTokenScan(rewards: tf.Tensor2D, discount: number, trace = true): ScanResultTensors {
  const [rows, cols] = rewards.shape;
  // A float32 scalar: the discount is rounded to fl32(d) once, as in slime's float32 loop.
  const d = tf.scalar(discount, "float32");
  let running: tf.Tensor2D = tf.zeros([rows, 1]);
  const carries: tf.Tensor2D[] = [];
  const scanned: tf.Tensor2D[] = [];
  for (let t = cols - 1; t >= 0; t--) {
    if (trace) carries.push(running);
    const reward = sliceAlong(rewards, t);
    const decayed = tf.mul(d, running);
    running = tf.add(reward, decayed);
    // Freed now rather than at the end of the caller's tidy: a long row would otherwise hold
    // three tensors per token until the very end.
    reward.dispose();
    decayed.dispose();
    scanned.push(running);
  }
  // `scanned` is in reversed time (slime's chunk order); flip it back for the returns.
  const returns = tf.reverse(tf.concat(scanned, 1), 1) as tf.Tensor2D;
  if (!trace) return { returns };
  return {
    returns,
    localScans: tf.reshape(tf.reverse(rewards, 1), [rows, cols, 1]),
    carriesIn: tf.concat(carries, 1),
  };
}
