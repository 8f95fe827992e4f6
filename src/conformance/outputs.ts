import type { BatchedScanOrder, ConventionResult, FloatArray, ScanOutputs } from "../core";
import type { ScanCase } from "../io/caseSchema";

/** One compared output: its name in the case file, what was computed and what it should be. */
export interface OutputPair {
  name: string;
  actual: ArrayLike<number>;
  reference: ArrayLike<number>;
}

/**
 * What a solver computes for a case: a scan estimator's outputs, or a library convention's. A
 * convention computed by batched scans (the engine) says so in `order`, since its rounding, and
 * so its error bound, follows those scans rather than each library's own loops.
 */
export type CaseOutputs =
  | ScanOutputs
  | ({ kind: "convention"; order?: BatchedScanOrder } & ConventionResult<FloatArray>);

type Reference = "expected" | "chunked_float32" | "float32";

/**
 * Pairs every output the case records under `reference` with the computed one, flattening
 * ragged sequences. Outputs the reference does not record (e.g. deltas) are not compared.
 */
export function pairOutputs(c: ScanCase, outputs: CaseOutputs, reference: Reference): OutputPair[] {
  const recorded = (c as Partial<Record<Reference, unknown>>)[reference];
  if (!recorded) return [];
  if (outputs.kind !== c.kind) throw new Error(`solver returned ${outputs.kind} outputs for a ${c.kind} case`);
  switch (outputs.kind) {
    case "discounted":
      return [{ name: "returns", actual: outputs.returns, reference: (recorded as { returns: number[] }).returns }];
    case "gae": {
      const r = recorded as { advantages: number[]; returns: number[] };
      return [
        { name: "advantages", actual: outputs.advantages, reference: r.advantages },
        { name: "returns", actual: outputs.returns, reference: r.returns },
      ];
    }
    case "reinforce_pp": {
      const r = recorded as { returns: number[][]; token_level_rewards: number[][] };
      return [
        { name: "returns", actual: flatten(outputs.returns), reference: r.returns.flat() },
        {
          name: "token_level_rewards",
          actual: flatten(outputs.tokenLevelRewards),
          reference: r.token_level_rewards.flat(),
        },
      ];
    }
    case "convention": {
      const r = recorded as { token_level_rewards: number[][]; returns: number[][]; advantages: number[][] };
      const pairs = [
        {
          name: "token_level_rewards",
          actual: flatten(outputs.tokenLevelRewards),
          reference: r.token_level_rewards.flat(),
        },
        { name: "returns", actual: flatten(outputs.returns), reference: r.returns.flat() },
        { name: "advantages", actual: flatten(outputs.advantages), reference: r.advantages.flat() },
      ];
      // Where the outcome reward went is part of the convention: a wrong index must fail.
      const index = c.kind === "convention" ? c.reward_index : undefined;
      if (index) pairs.push({ name: "reward_index", actual: outputs.rewardIndex, reference: index });
      return pairs;
    }
  }
}

function flatten(rows: ArrayLike<number>[]): number[] {
  return rows.flatMap((row) => Array.from(row));
}
