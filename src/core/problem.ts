import type { Batch, FloatArray } from "./batch";
import { type ChunkedScanOptions, type ChunkTrace, chunkedDiscountedReturns } from "./chunkedScan";
import { chunkedGae, vanillaGae } from "./gae";
import { type ReinforcePPBatch, reinforcePPReturns, serialReinforcePPReturns } from "./reinforcePP";
import { serialDiscountedReturns } from "./serialScan";
import { allowingNonFinite } from "./validation";

/** One of the three estimators built on the scan, with its inputs and parameters. */
export type ScanProblem<A extends FloatArray = FloatArray> = (
  | { kind: "discounted"; rewards: Batch<A>; discount: number; chunkSize: number }
  | { kind: "gae"; rewards: Batch<A>; values: Batch<A>; gamma: number; lambd: number; chunkSize: number }
  | { kind: "reinforce_pp"; batch: ReinforcePPBatch<A>; klCoef: number; gamma: number; chunkSize: number }
) & {
  /**
   * Opt-in: run NaN and ±Inf inputs instead of rejecting them, to show how each scan spreads them
   * (ALGORITHM.md §b.4). Absent (the default): any non-finite input is a ScanInputError.
   */
  allowNonFinite?: boolean;
};

/** What an estimator produces, named as in the golden files; rectangular outputs are row-major. */
export type ScanOutputs<A extends FloatArray = FloatArray> =
  | { kind: "discounted"; returns: A }
  | { kind: "gae"; advantages: A; returns: A }
  | { kind: "reinforce_pp"; returns: A[]; tokenLevelRewards: A[] };

export type ScanMethod = "serial" | "chunked";

export interface Solution<A extends FloatArray = FloatArray> {
  outputs: ScanOutputs<A>;
  /** The chunked scan's intermediates (absent for the serial method). */
  trace?: ChunkTrace<A>;
}

/** A solve's options: a chunked scan's (its chunk size is the problem's); `zeros` serves the serial scan too. */
export type SolveOptions = Omit<ChunkedScanOptions, "chunkSize">;

/** Solves a problem with the serial reference or slime's chunked scan, in the precision of its arrays. */
export function solve<A extends FloatArray>(
  problem: ScanProblem<A>,
  method: ScanMethod,
  options: SolveOptions = {},
): Solution<A> {
  if (problem.allowNonFinite) return allowingNonFinite(() => solveChecked(problem, method, options));
  return solveChecked(problem, method, options);
}

function solveChecked<A extends FloatArray>(
  problem: ScanProblem<A>,
  method: ScanMethod,
  options: SolveOptions,
): Solution<A> {
  const { zeros } = options;
  const scan = { ...options, chunkSize: problem.chunkSize };
  switch (problem.kind) {
    case "discounted": {
      if (method === "serial") {
        const returns = serialDiscountedReturns(problem.rewards, problem.discount, zeros);
        return { outputs: { kind: "discounted", returns: returns.data } };
      }
      const { returns, trace } = chunkedDiscountedReturns(problem.rewards, problem.discount, scan);
      return { outputs: { kind: "discounted", returns: returns.data }, trace };
    }
    case "gae": {
      const { rewards, values, gamma, lambd } = problem;
      if (method === "serial") {
        const { advantages, returns } = vanillaGae(rewards, values, gamma, lambd, zeros);
        return { outputs: { kind: "gae", advantages: advantages.data, returns: returns.data } };
      }
      const { advantages, returns, trace } = chunkedGae(rewards, values, gamma, lambd, scan);
      return { outputs: { kind: "gae", advantages: advantages.data, returns: returns.data }, trace };
    }
    case "reinforce_pp": {
      const { batch, klCoef, gamma } = problem;
      if (method === "serial") {
        const result = serialReinforcePPReturns(batch, klCoef, gamma);
        return { outputs: { kind: "reinforce_pp", ...result } };
      }
      const { returns, tokenLevelRewards, trace } = reinforcePPReturns(batch, klCoef, gamma, scan);
      return { outputs: { kind: "reinforce_pp", returns, tokenLevelRewards }, trace };
    }
  }
}
