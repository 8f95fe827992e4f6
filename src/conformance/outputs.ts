import type { BatchedScanOrder, ConventionResult, FloatArray, ScanOutputs } from "../core";
import type { ScanCase } from "../io/caseSchema";

/** One compared output: its name in the case file, what was computed and what it should be. */
export interface OutputPair {
  name: string;
  actual: ArrayLike<number>;
  reference: ArrayLike<number>;
  /** Row lengths of a flattened ragged output, so that an element is named `returns[1][17]` as in the file. */
  rowLengths?: readonly number[];
}

/** An element as the case file spells it: `returns[2353]` (row-major), `returns[1][17]` (ragged). */
export function elementName(pair: Pick<OutputPair, "name" | "rowLengths">, index: number): string {
  if (!pair.rowLengths) return `${pair.name}[${index}]`;
  let rest = index;
  for (const [row, length] of pair.rowLengths.entries()) {
    if (rest < length) return `${pair.name}[${row}][${rest}]`;
    rest -= length;
  }
  return `${pair.name}[${index}]`;
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
      const rowLengths = r.returns.map((row) => row.length);
      return [
        { name: "returns", actual: flatten(outputs.returns), reference: r.returns.flat(), rowLengths },
        {
          name: "token_level_rewards",
          actual: flatten(outputs.tokenLevelRewards),
          reference: r.token_level_rewards.flat(),
          rowLengths: r.token_level_rewards.map((row) => row.length),
        },
      ];
    }
    case "convention": {
      const r = recorded as { token_level_rewards: number[][]; returns: number[][]; advantages: number[][] };
      const lengthsOf = (rows: number[][]) => rows.map((row) => row.length);
      const pairs: OutputPair[] = [
        {
          name: "token_level_rewards",
          actual: flatten(outputs.tokenLevelRewards),
          reference: r.token_level_rewards.flat(),
          rowLengths: lengthsOf(r.token_level_rewards),
        },
        {
          name: "returns",
          actual: flatten(outputs.returns),
          reference: r.returns.flat(),
          rowLengths: lengthsOf(r.returns),
        },
        {
          name: "advantages",
          actual: flatten(outputs.advantages),
          reference: r.advantages.flat(),
          rowLengths: lengthsOf(r.advantages),
        },
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
