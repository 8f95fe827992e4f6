import { arrayOf, type FloatArray, type PowTables, type Precision, type ScanProblem } from "../core";
import type { ScanCase } from "../io/caseSchema";

/**
 * The case's inputs as a problem in the given precision (inputs are float32-representable by the
 * schema's contract). Library-convention cases are not one scan problem: they run in core only.
 */
export function caseToProblem(c: ScanCase, precision: Precision): ScanProblem {
  const array = (values: number[]): FloatArray => arrayOf(precision, values);
  switch (c.kind) {
    case "discounted": {
      const [rows, cols] = c.shape;
      const rewards = { rows, cols, data: array(c.inputs.rewards) };
      return { kind: "discounted", rewards, discount: c.params.discount, chunkSize: c.params.chunk_size };
    }
    case "gae": {
      const [rows, cols] = c.shape;
      const { gamma, lambd, chunk_size } = c.params;
      return {
        kind: "gae",
        rewards: { rows, cols, data: array(c.inputs.rewards) },
        values: { rows, cols, data: array(c.inputs.values) },
        gamma,
        lambd,
        chunkSize: chunk_size,
      };
    }
    case "reinforce_pp": {
      const { rewards, kl, loss_masks } = c.inputs;
      const batch = { rewards, kl: kl.map(array), lossMasks: loss_masks };
      return {
        kind: "reinforce_pp",
        batch,
        klCoef: c.params.kl_coef,
        gamma: c.params.gamma,
        chunkSize: c.params.chunk_size,
      };
    }
    case "convention":
      throw new Error(
        "library-convention cases (slime, OpenRLHF, verl) run in core only: scanlab check --mode float64 or float32",
      );
  }
}

/** The exact float32 power tables torch used for this case, when the file carries them. */
export function casePowTables(c: ScanCase): PowTables | undefined {
  const tables = c.float32_pow_tables;
  if (!tables) return undefined;
  return { kernelRow: Float32Array.from(tables.M_row0), carryPowers: Float32Array.from(tables.pow_vec) };
}
