import {
  arrayOf,
  type Batch,
  DEFAULT_CHUNK_SIZE,
  discountPowers,
  type PowTables,
  type ScanProblem,
  solve,
} from "../core";
import type { CaseFile, GoldenCase, ScanCase } from "./caseSchema";

/**
 * Writes a problem as a golden case (schema_version 1): `expected` from the float64 serial
 * reference, `chunked_float32` from the float32 chunked scan with torch's own CPU float32 power
 * tables (core/torchPow, as slime gets them from Debian's torch 1.13 on AVX2; recorded as
 * `float32_pow_tables`, so a slime-exact replay of the file is bit-identical). A REINFORCE++
 * case is scanned in chunks of 128 whatever the problem's chunk size: slime always does.
 * Inputs are rounded to float32 first, as the schema requires. `tolerance` is left out: checkers
 * then apply the uniform rule. A problem the reference rejects becomes an `expect_error` case.
 */
export function buildCase(given: ScanProblem, name: string, note = ""): ScanCase {
  // slime's get_reinforce_plus_plus_returns calls the scan with its default chunk size, always.
  const problem: ScanProblem = given.kind === "reinforce_pp" ? { ...given, chunkSize: DEFAULT_CHUNK_SIZE } : given;
  const f32 = toPrecision(problem, "float32");
  const f64 = toPrecision(f32, "float64");
  const common = { name, note, seed: 0 };
  let error: string | undefined;
  let truth: ReturnType<typeof solve> | undefined;
  let chunked: ReturnType<typeof solve> | undefined;
  const tables = powTablesOf(f32);
  try {
    truth = solve(f64, "serial");
    chunked = solve(f32, "chunked", { powTables: tables });
  } catch (e) {
    error = (e as { referenceText?: string }).referenceText ?? (e as Error).message;
  }
  const patches = tables.kernelPatches ?? [];
  const pow = error
    ? {}
    : {
        float32_pow_tables: {
          M_row0: list(tables.kernelRow),
          pow_vec: list(tables.carryPowers),
          ...(patches.length > 0
            ? { M_patches: patches.map(({ row, col, value }) => [row, col, value] as [number, number, number]) }
            : {}),
        },
      };
  const errorFields = error ? { expect_error: error, max_abs_err_float32: null } : {};
  switch (f64.kind) {
    case "discounted": {
      const t = truth?.outputs as { returns: Float64Array } | undefined;
      const c = chunked?.outputs as { returns: Float32Array } | undefined;
      return {
        ...common,
        ...pow,
        ...errorFields,
        kind: "discounted",
        shape: [f64.rewards.rows, f64.rewards.cols],
        params: { discount: f64.discount, chunk_size: f64.chunkSize },
        inputs: { rewards: list(f64.rewards.data) },
        expected: t ? { returns: list(t.returns) } : null,
        chunked_float32: c ? { returns: list(c.returns) } : null,
      };
    }
    case "gae": {
      const t = truth?.outputs as { advantages: Float64Array; returns: Float64Array } | undefined;
      const c = chunked?.outputs as { advantages: Float32Array; returns: Float32Array } | undefined;
      const { gamma, lambd, chunkSize } = f64;
      return {
        ...common,
        ...pow,
        ...errorFields,
        kind: "gae",
        shape: [f64.rewards.rows, f64.rewards.cols],
        params: { gamma, lambd, discount: gamma * lambd, chunk_size: chunkSize },
        inputs: { rewards: list(f64.rewards.data), values: list(f64.values.data) },
        expected: t ? { advantages: list(t.advantages), returns: list(t.returns) } : null,
        chunked_float32: c ? { advantages: list(c.advantages), returns: list(c.returns) } : null,
      };
    }
    case "reinforce_pp": {
      const t = truth?.outputs as { returns: Float64Array[]; tokenLevelRewards: Float64Array[] } | undefined;
      const c = chunked?.outputs as { returns: Float32Array[]; tokenLevelRewards: Float32Array[] } | undefined;
      const { batch } = f64;
      return {
        ...common,
        ...pow,
        ...errorFields,
        kind: "reinforce_pp",
        lengths: batch.kl.map((row) => row.length),
        params: { kl_coef: f64.klCoef, gamma: f64.gamma, chunk_size: f64.chunkSize },
        inputs: {
          rewards: list(batch.rewards),
          kl: batch.kl.map(list),
          loss_masks: batch.lossMasks.map((mask) => list(mask) as (0 | 1)[]),
        },
        expected: t ? { returns: t.returns.map(list), token_level_rewards: t.tokenLevelRewards.map(list) } : null,
        chunked_float32: c
          ? { returns: c.returns.map(list), token_level_rewards: c.tokenLevelRewards.map(list) }
          : null,
      };
    }
  }
}

export function buildCaseFile<C extends GoldenCase>(cases: C[], title = "scanlab cases"): CaseFile & { cases: C[] } {
  return { meta: { title, schema_version: 1 }, cases };
}

/** The same problem with every array (and outcome reward) in the given precision. */
function toPrecision(problem: ScanProblem, precision: "float32" | "float64"): ScanProblem {
  const convert = (b: Batch): Batch => ({ rows: b.rows, cols: b.cols, data: arrayOf(precision, b.data) });
  switch (problem.kind) {
    case "discounted":
      return { ...problem, rewards: convert(problem.rewards) };
    case "gae":
      return { ...problem, rewards: convert(problem.rewards), values: convert(problem.values) };
    case "reinforce_pp": {
      const { rewards, kl, lossMasks } = problem.batch;
      const batch = {
        rewards: Array.from(arrayOf(precision, rewards)),
        kl: kl.map((row) => arrayOf(precision, row)),
        lossMasks,
      };
      return { ...problem, batch };
    }
  }
}

function powTablesOf(problem: ScanProblem): PowTables {
  const discount =
    problem.kind === "discounted"
      ? problem.discount
      : problem.kind === "gae"
        ? problem.gamma * problem.lambd
        : problem.gamma;
  const chunkSize = Number.isInteger(problem.chunkSize) && problem.chunkSize > 0 ? problem.chunkSize : 1;
  return discountPowers(discount, chunkSize, "float32");
}

/** Plain numbers for JSON, with −0 written as 0 like the golden files. */
function list(values: ArrayLike<number>): number[] {
  return Array.from(values, (v) => (Object.is(v, -0) ? 0 : v));
}
