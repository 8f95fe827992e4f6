import type { FloatArray, ScanOutputs } from "../../core";

/** The outputs an estimator produces, in the order the page lists them (the first is charted by default). */
export type OutputName = "returns" | "advantages" | "token_level_rewards";

/** One output of a run as a padded `[rows, cols]` row-major table (zeros past each row's length). */
export type OutputTables<A extends FloatArray = FloatArray> = Partial<Record<OutputName, A>>;

/** The output names of a kind, charted one first. */
export function outputNames(kind: ScanOutputs["kind"]): OutputName[] {
  if (kind === "gae") return ["advantages", "returns"];
  if (kind === "reinforce_pp") return ["returns", "token_level_rewards"];
  return ["returns"];
}

/**
 * Every output as a padded table: rectangular outputs are already `[rows, cols]`; REINFORCE++'s
 * ragged rows are right-padded with zeros to `cols`, as the heatmap and the summary read them.
 */
export function outputTables<A extends FloatArray>(
  outputs: ScanOutputs<A>,
  rows: number,
  cols: number,
): OutputTables<A> {
  switch (outputs.kind) {
    case "discounted":
      return { returns: outputs.returns };
    case "gae":
      return { advantages: outputs.advantages, returns: outputs.returns };
    case "reinforce_pp":
      return {
        returns: padRows(outputs.returns, rows, cols),
        token_level_rewards: padRows(outputs.tokenLevelRewards, rows, cols),
      };
  }
}

function padRows<A extends FloatArray>(ragged: A[], rows: number, cols: number): A {
  const out = tableLike(ragged, rows, cols);
  ragged.forEach((row, b) => {
    out.set(row.subarray(0, cols), b * cols);
  });
  return out;
}

function tableLike<A extends FloatArray>(ragged: A[], rows: number, cols: number): A {
  return (ragged[0] instanceof Float32Array ? new Float32Array(rows * cols) : new Float64Array(rows * cols)) as A;
}
