import * as tf from "@tensorflow/tfjs-core";
import { type ConventionProblem, type ConventionResult, ScanInputError } from "../../core";
import { runsOn, STRATEGIES, type Strategy } from "../../names/strategies";
import { activeCapacity, type BackendCapacity, formatBytes, formatCount } from "../backendCapacity";
import { discountedScan } from "../discountedScan";
import { EngineLimitError } from "../engineErrors";
import { checkEngineLimits } from "../engineLimits";
import { gaeScan } from "../gaeScan";
import { readBack } from "../readBack";
import { activeBackend } from "../runProblem";
import { type CompactLayout, compactedGae, compactLayout } from "./compactedGae";
import { checkConventionOutputs } from "./conventionOutputCheck";
import { type PreparedConvention, paddedData, prepareConvention } from "./prepareConvention";
import { type SegmentLayout, segmentedReturns, segmentLayout } from "./segmentedScan";
import { pairwiseSumValues, whitenTensor } from "./whitenTensors";

export interface ConventionRun {
  /** Token-level rewards, returns and advantages of each sequence, and where each reward went. */
  result: ConventionResult<Float32Array>;
  /** tf.getBackend() at the time of the run: the backend that really ran. */
  backend: string;
  /** Wall time of the run, validation and reading the results back included. */
  millis: number;
}

/** The host-side layouts the mask-0 conventions need, built once the limits have accepted them. */
type Layouts = { segments?: SegmentLayout; compact?: CompactLayout };

/**
 * A library convention (slime, OpenRLHF or verl; REINFORCE++ or GAE) on the active TensorFlow.js
 * backend in float32, every scan on the chosen strategy's scan over the right-padded batch:
 * OpenRLHF's masking is a multiply before the plain scans, verl's cut REINFORCE++ a segmented
 * scan (segmentedScan.ts), verl's skipping GAE a compacted one (compactedGae.ts), whitening on
 * tensors (whitenTensors.ts). Token-level rewards come from core on the host (elementwise, and an
 * output in their own right). Fails like runProblem: ScanInputError for input core rejects,
 * EngineLimitError before any tensor exists, EngineOutputError for results that cannot be right;
 * every tensor it creates is disposed before it returns or throws.
 */
export async function runConventionProblem(problem: ConventionProblem, strategy: Strategy): Promise<ConventionRun> {
  const start = performance.now();
  if (!STRATEGIES.includes(strategy)) {
    throw new ScanInputError(`strategy must be one of ${STRATEGIES.join(", ")}, got ${String(strategy)}`);
  }
  const p = prepareConvention(problem);
  const backend = activeBackend();
  if (!runsOn(strategy, backend)) throw new ScanInputError(`the ${strategy} strategy does not run on ${backend}`);
  const layouts = checkConventionLimits(p, strategy, activeCapacity(backend));
  const result = await solve(p, layouts, strategy);
  checkConventionOutputs(p, backend, result, strategy);
  return { result, backend, millis: performance.now() - start };
}

/**
 * Refuses, before any tensor exists, what the backend cannot hold: the `[B, max L]` batch every
 * scan runs over, verl's width groups of segments and their results laid end to end, and the
 * whitening's pairwise sum (padded to a power of two).
 */
export function checkConventionLimits(p: PreparedConvention, strategy: Strategy, capacity: BackendCapacity): Layouts {
  const { rows, cols, chunkSize } = p;
  if (rows * cols === 0) return {};
  checkEngineLimits({ rows, cols, chunkSize }, strategy, capacity);
  const refuse = (what: string, values: number) => {
    if (values <= capacity.maxTensorValues) return;
    throw new EngineLimitError(
      `the ${rows}×${cols} batch needs ${what} of ${formatCount(values)} float32 values (${formatBytes(4 * values)}); ` +
        `${capacity.tensorLimit}: split the batch into smaller ones`,
    );
  };
  if (p.normalize) refuse("a pairwise sum for the whitening", pairwiseSumValues(rows * cols));
  if (p.library !== "verl") return {};
  if (p.estimator === "gae") return { compact: compactLayout(p.masks, cols) };
  const segments = segmentLayout(p.masks, cols);
  for (const group of segments.groups) {
    checkEngineLimits({ rows: group.count, cols: group.width, chunkSize }, strategy, capacity);
  }
  refuse(`its ${segments.groups.length} groups of cut segments (verl) laid end to end`, segments.gatheredValues + 1);
  return { segments };
}

async function solve(
  p: PreparedConvention,
  layouts: Layouts,
  strategy: Strategy,
): Promise<ConventionResult<Float32Array>> {
  const { rows, cols, chunkSize, gamma } = p;
  const base = { tokenLevelRewards: p.tokens, rewardIndex: p.rewardIndex };
  if (rows * cols === 0) {
    const empty = () => p.tokens.map(() => new Float32Array(0));
    return { ...base, returns: empty(), advantages: empty() };
  }
  const a = await readBack(
    tf.tidy(() => {
      const tokens = tf.tensor2d(paddedData(p.tokens, cols), [rows, cols], "float32");
      const mask = tf.tensor2d(paddedData(p.masks, cols), [rows, cols], "float32");
      let returns: tf.Tensor2D;
      let advantages: tf.Tensor2D;
      if (p.estimator === "reinforce_pp") {
        if (p.library === "verl") {
          returns = segmentedReturns(tokens, layouts.segments as SegmentLayout, gamma, chunkSize, strategy);
        } else {
          // OpenRLHF multiplies the token rewards by the mask; slime's are 0 there already.
          const x = p.library === "openrlhf" ? tf.mul(tokens, mask) : tokens;
          returns = discountedScan(x as tf.Tensor2D, gamma, chunkSize, strategy).returns;
        }
        advantages = returns;
      } else {
        const values = tf.tensor2d(paddedData(p.values ?? [], cols), [rows, cols], "float32");
        let gae: { advantages: tf.Tensor2D; returns: tf.Tensor2D };
        if (p.library === "verl") {
          gae = compactedGae(tokens, values, layouts.compact as CompactLayout, gamma, p.lambd, chunkSize, strategy);
        } else if (p.library === "openrlhf") {
          // Rewards and values masked to 0 first; returns = A + m·V.
          const masked = (x: tf.Tensor2D) => tf.mul(x, mask) as tf.Tensor2D;
          gae = gaeScan(masked(tokens), masked(values), gamma, gamma * p.lambd, chunkSize, strategy);
        } else {
          gae = gaeScan(tokens, values, gamma, gamma * p.lambd, chunkSize, strategy);
        }
        returns = gae.returns;
        advantages = gae.advantages;
      }
      if (p.normalize) advantages = whitenTensor(advantages, mask, p.validTokens, p.library);
      // verl re-masks its REINFORCE++ advantages, whitened or not.
      if (p.library === "verl" && p.estimator === "reinforce_pp") advantages = tf.mul(advantages, mask) as tf.Tensor2D;
      return { returns, advantages };
    }),
  );
  const trim = (data: Float32Array) => p.tokens.map((row, b) => data.slice(b * cols, b * cols + row.length));
  return { ...base, returns: trim(a.returns), advantages: trim(a.advantages) };
}
