import type { FloatArray } from "../batch";
import { type ChunkedScanOptions, chunkedDiscountedReturns } from "../chunkedScan";
import { chunkedGae } from "../gae";
import { padRight, trimRow } from "../reinforcePP";
import { gatherIfSplit, reassemble, sliceBack } from "./gather";
import type { CpLayout } from "./layout";
import { checkLayouts, ranksFirst } from "./reinforcePPByRank";

/** A scan of per-token inputs under context parallelism: local pieces → gather → scan → slice back. */
export interface CpScanRun<A extends FloatArray = FloatArray> {
  /** [rank][sample]: each rank's pieces of the scanned input (the rewards). */
  localInputs: A[][];
  /** [sample]: the input after the gather (the same on every rank). */
  gatheredInputs: A[];
  /** [sample]: the scan over the whole response, which every rank runs. */
  outputs: A[];
  /** [rank][sample]: what each rank keeps. */
  localOutputs: A[][];
  /** [sample]: the ranks' pieces put back at their response indices. */
  reassembled: A[];
}

/** `chunked_discounted_returns` over the gathered rewards of the padded batch, rank by rank. */
export function discountedByRank<A extends FloatArray>(
  rewards: A[],
  layouts: CpLayout[],
  gamma: number,
  options: ChunkedScanOptions = {},
): CpScanRun<A> {
  checkLayouts(layouts, rewards);
  const bySample = rewards.map((r, i) => sliceBack(layouts[i], r));
  const gathered = layouts.map((layout, i) => gatherIfSplit(layout, bySample[i]));
  const like = rewards[0] ?? (new Float64Array(0) as A);
  const { returns } = chunkedDiscountedReturns(padRight(gathered, like), gamma, options);
  const outputs = gathered.map((r, b) => trimRow(returns, b, r.length));
  return finish(layouts, bySample, gathered, outputs);
}

/** `get_advantages_and_returns_batch` on per-token rewards and values, rank by rank: the advantages. */
export function gaeByRank<A extends FloatArray>(
  rewards: A[],
  values: A[],
  layouts: CpLayout[],
  gamma: number,
  lambd: number,
  options: ChunkedScanOptions = {},
): CpScanRun<A> & { gatheredValues: A[] } {
  checkLayouts(layouts, rewards);
  checkLayouts(layouts, values);
  const bySample = rewards.map((r, i) => sliceBack(layouts[i], r));
  const gathered = layouts.map((layout, i) => gatherIfSplit(layout, bySample[i]));
  const gatheredValues = layouts.map((layout, i) => gatherIfSplit(layout, sliceBack(layout, values[i])));
  const { advantages } = gaeOverBatch(gathered, gatheredValues, gamma, lambd, options);
  return { ...finish(layouts, bySample, gathered, advantages), gatheredValues };
}

function finish<A extends FloatArray>(
  layouts: CpLayout[],
  inputsBySample: A[][],
  gathered: A[],
  outputs: A[],
): CpScanRun<A> {
  const cpSize = layouts[0]?.cpSize ?? 1;
  const localBySample = outputs.map((out, i) => sliceBack(layouts[i], out));
  return {
    localInputs: ranksFirst(inputsBySample, cpSize),
    gatheredInputs: gathered,
    outputs,
    localOutputs: ranksFirst(localBySample, cpSize),
    reassembled: localBySample.map((locals, i) => reassemble(layouts[i], locals)),
  };
}

/** Zero-pad to the longest response, `chunked_gae`, trim: the batch part of `get_advantages_and_returns_batch`. */
export function gaeOverBatch<A extends FloatArray>(
  rewards: A[],
  values: A[],
  gamma: number,
  lambd: number,
  options: ChunkedScanOptions,
): { advantages: A[]; returns: A[] } {
  const like = rewards[0] ?? (new Float64Array(0) as A);
  const result = chunkedGae(padRight(rewards, like), padRight(values, like), gamma, lambd, options);
  return {
    advantages: rewards.map((r, b) => trimRow(result.advantages, b, r.length)),
    returns: rewards.map((r, b) => trimRow(result.returns, b, r.length)),
  };
}
