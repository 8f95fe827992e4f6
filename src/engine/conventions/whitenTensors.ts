import * as tf from "@tensorflow/tfjs-core";
import type { Library } from "../../core";

/**
 * Whitening on tensors, each library's formula (core's whiten.ts is the reference; the bound is
 * conventionErrorBounds with a BatchedScanOrder): μ = Σa·m / N (verl: N + 1e-8), variance
 * Σ(a − μ)²·m over N (OpenRLHF), N − 1 (slime, from N = 2; verl with N + 1e-8 and N/(N − 1)),
 * `(a − μ)·rsqrt(var + 1e-8)` (OpenRLHF: `max(var, 1e-8)`) on every token. slime's one-pass
 * variance Σa²m/N − μ² is the same number in exact arithmetic; the two-pass form is used for all,
 * as core does, because in float32 the one-pass form cancels when |μ| ≫ σ. N is counted on the
 * host (exact); the sums are pairwise, so each term passes ⌈log₂(B·T)⌉ additions, not B·T.
 * Call inside tf.tidy.
 */
export function whitenTensor(advantages: tf.Tensor2D, mask: tf.Tensor2D, n: number, library: Library): tf.Tensor2D {
  const meanDivisor = library === "verl" ? n + 1e-8 : n;
  const varianceFactor =
    library === "openrlhf" ? 1 / n : library === "verl" ? n / ((n + 1e-8) * (n - 1)) : 1 / (n >= 2 ? n - 1 : n);
  const mean = tf.div(pairwiseSum(tf.mul(advantages, mask)), tf.scalar(meanDivisor, "float32"));
  const centered = tf.sub(advantages, mean);
  const variance = tf.mul(pairwiseSum(tf.mul(tf.mul(centered, centered), mask)), tf.scalar(varianceFactor, "float32"));
  const epsilon = tf.scalar(1e-8, "float32");
  const scaled = library === "openrlhf" ? tf.maximum(variance, epsilon) : tf.add(variance, epsilon);
  return tf.mul(centered, tf.rsqrt(scaled)) as tf.Tensor2D;
}

/**
 * Σx as a balanced tree: the values padded with zeros to a power of two, then pairs added level by
 * level, so the float32 sum is off by at most ⌈log₂ n⌉·u·Σ|x| whatever the backend's own reduction
 * order would be.
 */
export function pairwiseSum(x: tf.Tensor): tf.Scalar {
  const n = x.size;
  let width = 1;
  while (width < n) width *= 2;
  let level: tf.Tensor = tf.reshape(x, [n]);
  if (width > n) level = tf.pad(level as tf.Tensor1D, [[0, width - n]]);
  while (width > 1) {
    width /= 2;
    level = tf.sum(tf.reshape(level, [width, 2]), 1);
  }
  return tf.reshape(level, []) as tf.Scalar;
}

/** Values the pairwise sum's padded tensor holds, for the engine's limits. */
export function pairwiseSumValues(n: number): number {
  let width = 1;
  while (width < n) width *= 2;
  return width;
}
