import {
  arrayOf,
  CONVENTION_CHUNK_SIZE,
  type ConventionProblem,
  type FloatArray,
  type PowTables,
  type Precision,
  type ScanProblem,
} from "../core";
import type { ConventionCase, ScanCase } from "../io/caseSchema";

/**
 * The case's inputs as a problem in the given precision (inputs are float32-representable by the
 * schema's contract; in float32 one that is not even finite there is a Float32OverflowError).
 * A library-convention case is not one scan problem: caseToConventionProblem reads it.
 */
export function caseToProblem(c: ScanCase, precision: Precision): ScanProblem {
  if (precision === "float32") checkFloat32Range(c);
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
      throw new Error("a library-convention case (slime, OpenRLHF, verl) is a convention problem, not a scan problem");
  }
}

/**
 * A library-convention case as a convention problem in the given precision, with slime's chunk
 * size (the files record none: the libraries' math does not depend on it).
 */
export function caseToConventionProblem(c: ConventionCase, precision: Precision): ConventionProblem {
  // Inputs float32 cannot hold fail with their place named, not as a non-finite value later.
  if (precision === "float32") checkFloat32Range(c);
  const array = (values: number[]) => arrayOf(precision, values);
  const { inputs, params } = c;
  return {
    library: c.library,
    estimator: c.estimator,
    batch: {
      rewards: inputs.rewards,
      kl: inputs.kl.map(array),
      lossMasks: inputs.loss_masks,
      values: inputs.values?.map(array),
    },
    params: {
      gamma: params.gamma,
      lambd: params.lambd,
      klCoef: params.kl_coef,
      normalize: params.normalize,
      rewardClipRange: params.reward_clip_range,
    },
    chunkSize: CONVENTION_CHUNK_SIZE,
  };
}

/** The exact float32 power tables torch used for this case, when the file carries them. */
export function casePowTables(c: ScanCase): PowTables | undefined {
  const tables = c.float32_pow_tables;
  if (!tables) return undefined;
  return {
    kernelRow: Float32Array.from(tables.M_row0),
    carryPowers: Float32Array.from(tables.pow_vec),
    kernelPatches: tables.M_patches?.map(([row, col, value]) => ({ row, col, value })),
  };
}

/** Largest finite float32, 2^128 − 2^104. */
export const FLOAT32_MAX = 3.4028234663852886e38;

/**
 * An input or parameter that float32 cannot hold: in a float32 run it would turn into ±Infinity
 * and fail somewhere far from its cause. The message names the field and the element.
 */
export class Float32OverflowError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "Float32OverflowError";
  }
}

/**
 * Throws a Float32OverflowError for the first input or parameter of the case beyond the float32
 * range (`inputs.rewards[3] (row 0, token 3): 1e+308 overflows float32 …`); the float64 modes can
 * still run such a case.
 */
export function checkFloat32Range(c: ScanCase): void {
  const fail = (where: string, value: number) => {
    throw new Float32OverflowError(
      `${where}: ${value} overflows float32 (largest finite ${FLOAT32_MAX.toPrecision(8)})`,
    );
  };
  const overflows = (x: number) => !Number.isFinite(Math.fround(x)) && Number.isFinite(x);
  for (const [name, value] of Object.entries(c.params)) {
    if (typeof value === "number" && overflows(value)) fail(`params.${name}`, value);
  }
  const cols = c.kind === "discounted" || c.kind === "gae" ? c.shape[1] : 0;
  for (const [name, values] of Object.entries(c.inputs)) {
    if (name === "loss_masks" || !values) continue;
    (values as (number | number[])[]).forEach((entry, i) => {
      if (typeof entry === "number") {
        if (!overflows(entry)) return;
        const at = cols > 0 ? ` (row ${Math.floor(i / cols)}, token ${i % cols})` : "";
        fail(`inputs.${name}[${i}]${at}`, entry);
      } else {
        const j = entry.findIndex(overflows);
        if (j >= 0) fail(`inputs.${name}[${i}][${j}]`, entry[j]);
      }
    });
  }
}
