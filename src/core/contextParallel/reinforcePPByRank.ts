import type { FloatArray } from "../batch";
import type { ChunkedScanOptions } from "../chunkedScan";
import { type ChunkedReinforcePPResult, type ReinforcePPBatch, reinforcePPReturns } from "../reinforcePP";
import { gatherIfSplit, reassemble, sliceBack } from "./gather";
import type { CpLayout } from "./layout";

/** REINFORCE++ under context parallelism, every step kept so it can be shown and checked. */
export interface CpReinforcePPRun<A extends FloatArray = FloatArray> {
  layouts: CpLayout[];
  /** [rank][sample]: the KL each rank holds (its two pieces, in local order). */
  localKl: A[][];
  /** [sample]: the KL after the gather; the all-reduce leaves the same vector on every rank. */
  gatheredKl: A[];
  /** The token rewards and the chunked scan every rank runs over the whole batch. */
  scan: ChunkedReinforcePPResult<A>;
  /** [rank][sample]: the returns each rank keeps after the slice-back. */
  localReturns: A[][];
  /** [sample]: the ranks' returns put back at their response indices. */
  reassembled: A[];
}

/**
 * slime's `get_reinforce_plus_plus_returns` with cp_size n, rank by rank: each rank starts from its
 * local KL, gathers the full KL, builds the token rewards with the full loss mask, runs the padded
 * batch scan and slices its own pieces back. Every rank runs the identical scan on identical
 * inputs, so it is computed once here.
 */
export function reinforcePPByRank<A extends FloatArray>(
  batch: ReinforcePPBatch<A>,
  layouts: CpLayout[],
  klCoef: number,
  gamma: number,
  options: ChunkedScanOptions = {},
): CpReinforcePPRun<A> {
  checkLayouts(layouts, batch.kl);
  const cpSize = layouts[0]?.cpSize ?? 1;
  // What each rank holds before the gather: its pieces of every sample's KL.
  const bySample = batch.kl.map((kl, i) => sliceBack(layouts[i], kl));
  const localKl = ranksFirst(bySample, cpSize);
  const gatheredKl = layouts.map((layout, i) => gatherIfSplit(layout, bySample[i]));
  const scan = reinforcePPReturns({ ...batch, kl: gatheredKl }, klCoef, gamma, options);
  const localBySample = scan.returns.map((returns, i) => sliceBack(layouts[i], returns));
  return {
    layouts,
    localKl,
    gatheredKl,
    scan,
    localReturns: ranksFirst(localBySample, cpSize),
    reassembled: localBySample.map((locals, i) => reassemble(layouts[i], locals)),
  };
}

/** [sample][rank] → [rank][sample]. */
export function ranksFirst<T>(bySample: T[][], cpSize: number): T[][] {
  return Array.from({ length: cpSize }, (_, r) => bySample.map((ranks) => ranks[r]));
}

export function checkLayouts(layouts: CpLayout[], rows: ArrayLike<number>[]): void {
  if (layouts.length !== rows.length) {
    throw new RangeError(`expected one layout per sample (${rows.length}), got ${layouts.length}`);
  }
  layouts.forEach((layout, i) => {
    if (layout.responseLength !== rows[i].length) {
      throw new RangeError(`sample ${i} has ${rows[i].length} response tokens but its layout ${layout.responseLength}`);
    }
    if (layout.cpSize !== layouts[0].cpSize) throw new RangeError("every sample must be split over the same cp_size");
  });
}
