import {
  allowingNonFinite,
  type Batch,
  checkChunkSize,
  checkDiscount,
  checkFiniteBatch,
  type FloatArray,
  type ScanProblem,
  tdResiduals,
  tokenLevelRewards,
} from "../core";
import type { ScanShape } from "./engineLimits";

/** A problem checked and converted to the engine's float32, ready to upload. */
export type PreparedProblem =
  | { kind: "discounted"; rewards: Batch<Float32Array>; discount: number; chunkSize: number }
  | {
      kind: "gae";
      rewards: Batch<Float32Array>;
      values: Batch<Float32Array>;
      gamma: number;
      /** γλ as one float64 product, as in slime; rounded to float32 only inside the powers. */
      discount: number;
      chunkSize: number;
    }
  | {
      kind: "reinforce_pp";
      /** Token-level rewards of each sequence (ragged), computed on the host by core. */
      tokens: Float32Array[];
      /**
       * `[B, max L]`: the shape of the right-padded batch the one scan runs over. The padding is
       * only built once the engine's limits have accepted this shape (it can dwarf the input).
       */
      rows: number;
      cols: number;
      gamma: number;
      chunkSize: number;
    };

/**
 * Converts to float32 first, then runs core's own checks in core's order, so a bad problem fails
 * with the very ScanInputError (message and reference type) that core's chunked solver raises.
 * Checking the float32 values means a float64 input that overflows float32 is rejected too.
 */
export function prepareProblem(problem: ScanProblem): PreparedProblem {
  // A problem that opted in (the playground's lesson of §b.4) runs its NaN and ±Inf; checkEngineOutputs
  // then accepts non-finite outputs only where they can reach.
  return problem.allowNonFinite ? allowingNonFinite(() => prepareChecked(problem)) : prepareChecked(problem);
}

function prepareChecked(problem: ScanProblem): PreparedProblem {
  switch (problem.kind) {
    case "discounted": {
      const { discount, chunkSize } = problem;
      const rewards = float32Batch(problem.rewards);
      checkDiscount(discount);
      checkChunkSize(chunkSize);
      checkFiniteBatch(rewards, "rewards");
      return { kind: "discounted", rewards, discount, chunkSize };
    }
    case "gae": {
      const { gamma, lambd, chunkSize } = problem;
      const rewards = float32Batch(problem.rewards);
      const values = float32Batch(problem.values);
      checkDiscount(lambd, "lambd");
      const discount = gamma * lambd;
      checkDiscount(discount);
      // Core checks γ, both batches and their shapes here, and rejects residuals that overflow
      // float32 (naming the token). The device computes its own residuals: these O(B·T) host
      // values serve only that check, so that the engine fails exactly where core does.
      tdResiduals(rewards, values, gamma);
      checkChunkSize(chunkSize);
      return { kind: "gae", rewards, values, gamma, discount, chunkSize };
    }
    case "reinforce_pp": {
      const { batch, klCoef, gamma, chunkSize } = problem;
      checkDiscount(gamma, "gamma");
      // Core's float32 token rewards: they validate every sequence (the fully-masked assertion
      // included) and are an output in their own right.
      const tokens = tokenLevelRewards({ ...batch, kl: batch.kl.map(toFloat32) }, klCoef);
      const cols = tokens.reduce((longest, row) => Math.max(longest, row.length), 0);
      checkChunkSize(chunkSize);
      return { kind: "reinforce_pp", tokens, rows: tokens.length, cols, gamma, chunkSize };
    }
  }
}

/** The batch the scan runs over, as the engine's limits see it. */
export function scanShape(p: PreparedProblem): ScanShape {
  const { rows, cols } = p.kind === "reinforce_pp" ? p : p.rewards;
  return { rows, cols, chunkSize: p.chunkSize };
}

function float32Batch(x: Batch<FloatArray>): Batch<Float32Array> {
  return { rows: x.rows, cols: x.cols, data: toFloat32(x.data) };
}

/** No copy when the input is float32 already: the engine never writes into its inputs. */
function toFloat32(data: FloatArray): Float32Array {
  return data instanceof Float32Array ? data : Float32Array.from(data);
}
