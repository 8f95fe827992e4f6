import * as tf from "@tensorflow/tfjs-core";
import type { Strategy } from "../names/strategies";
import { discountedScan, type ScanOptions, type ScanResultTensors, type ScanTensors } from "./discountedScan";

export type GaeTensors<S = ScanTensors> = {
  advantages: tf.Tensor2D;
  /** `advantages + values`: the critic's targets. */
  returns: tf.Tensor2D;
  scan: S;
};

/**
 * slime's `chunked_gae` on tensors (ALGORITHM.md §c.1): residuals `(r + γ·V_{t+1}) − V_t` with
 * `V_T = 0`, evaluated in that order in float32, then the scan with discount γλ (one float64
 * product, passed in). No mask: right padding with r = V = 0 is harmless. Call inside tf.tidy.
 * `options.trace` as for discountedScan.
 */
export function gaeScan(
  rewards: tf.Tensor2D,
  values: tf.Tensor2D,
  gamma: number,
  discount: number,
  chunkSize: number,
  strategy: Strategy,
  options?: ScanOptions & { trace?: true },
): GaeTensors;
export function gaeScan(
  rewards: tf.Tensor2D,
  values: tf.Tensor2D,
  gamma: number,
  discount: number,
  chunkSize: number,
  strategy: Strategy,
  options: ScanOptions,
): GaeTensors<ScanResultTensors>;
export function gaeScan(
  rewards: tf.Tensor2D,
  values: tf.Tensor2D,
  gamma: number,
  discount: number,
  chunkSize: number,
  strategy: Strategy,
  options: ScanOptions = {},
): GaeTensors<ScanResultTensors> {
  const [rows, cols] = rewards.shape;
  // V_{t+1}: values shifted left by one token, with the V_T = 0 convention filling the end.
  const nextValues =
    cols > 1
      ? tf.pad(tf.slice(values, [0, 1], [rows, cols - 1]), [
          [0, 0],
          [0, 1],
        ])
      : tf.zerosLike(values);
  const deltas = tf.sub(tf.add(rewards, tf.mul(tf.scalar(gamma, "float32"), nextValues)), values) as tf.Tensor2D;
  const scan = discountedScan(deltas, discount, chunkSize, strategy, options);
  return { advantages: scan.returns, returns: tf.add(scan.returns, values), scan };
}
