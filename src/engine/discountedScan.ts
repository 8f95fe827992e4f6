import type * as tf from "@tensorflow/tfjs-core";
import { type ChunkLayout, chunkLayout } from "../core";
import type { Strategy } from "../names/strategies";
import { chunkedScan } from "./chunkedScan";
import { fusedScan } from "./fused/fusedScan";
import { perTokenScan } from "./perTokenScan";
import { twoLevelScan } from "./twoLevelScan";

/**
 * A scan's result still on the device. A type, not an interface, so tf.tidy accepts it as a
 * TensorContainer and keeps every tensor inside alive.
 */
export type ScanTensors = {
  /** `[B, T]` float32 returns in original time. */
  returns: tf.Tensor2D;
  /** `[B, nChunks, C]` zero-carry scans of every chunk, in slime's reversed time. */
  localScans: tf.Tensor3D;
  /** `[B, nChunks]` carry entering each chunk (0 for the first). */
  carriesIn: tf.Tensor2D;
};

/** The returns, with the chunk intermediates only when they were asked for. */
export type ScanResultTensors = Pick<ScanTensors, "returns"> & Partial<Omit<ScanTensors, "returns">>;

export interface ScanOptions {
  /**
   * Whether the caller wants the chunk intermediates (the player and the conformance trace do; a
   * benchmark does not). Default true. Without them the fused kernel runs one dispatch instead of
   * two, and no strategy's intermediates are kept or read back.
   */
  trace?: boolean;
}

/** The chunks a strategy's trace is cut into: per-token reads every token as a chunk of one. */
export function scanLayout(cols: number, chunkSize: number, strategy: Strategy): ChunkLayout {
  return chunkLayout(cols, strategy === "per-token" ? 1 : chunkSize);
}

/**
 * `G[t] = r[t] + d·G[t+1]` on a float32 `[B, T]` tensor (B·T > 0) with the chosen strategy.
 * Creates intermediates freely: call it inside tf.tidy. The fused strategy needs the webgpu
 * backend (runProblem checks that first).
 */
export function discountedScan(
  rewards: tf.Tensor2D,
  discount: number,
  chunkSize: number,
  strategy: Strategy,
  options?: ScanOptions & { trace?: true },
): ScanTensors;
export function discountedScan(
  rewards: tf.Tensor2D,
  discount: number,
  chunkSize: number,
  strategy: Strategy,
  options: ScanOptions,
): ScanResultTensors;
export function discountedScan(
  rewards: tf.Tensor2D,
  discount: number,
  chunkSize: number,
  strategy: Strategy,
  options: ScanOptions = {},
): ScanResultTensors {
  const trace = options.trace ?? true;
  const scan = scanOf(rewards, discount, chunkSize, strategy, trace);
  return trace ? scan : { returns: scan.returns };
}

function scanOf(
  rewards: tf.Tensor2D,
  discount: number,
  chunkSize: number,
  strategy: Strategy,
  trace: boolean,
): ScanResultTensors {
  switch (strategy) {
    case "per-token":
      return perTokenScan(rewards, discount, trace);
    case "chunked":
      return chunkedScan(rewards, discount, chunkSize, trace);
    case "two-level":
      return twoLevelScan(rewards, discount, chunkSize);
    case "fused":
      return fusedScan(rewards, discount, chunkSize, trace);
  }
}
