import { type Precision, powerSourceLabel, runConvention, type ScanMethod, solve } from "../core";
import type { ConventionCase, GoldenCase, ScanCase } from "../io/caseSchema";
import { casePowTables, caseToConventionProblem, caseToProblem } from "./caseProblem";
import type { CaseSolver, Expectation } from "./checkCase";
import type { CaseOutputs } from "./outputs";

/** The pure-TypeScript implementations `scanlab check --mode` offers. */
export const CORE_MODES = ["float64", "float32", "slime-exact"] as const;
export type CoreMode = (typeof CORE_MODES)[number];

/** What each mode is held to. */
export const MODE_EXPECTATION: Record<CoreMode, Expectation> = {
  float64: "float64",
  float32: "float32",
  "slime-exact": "bit-exact",
};

/**
 * float64 and float32 run slime's chunked algorithm with computed discount powers (or the
 * serial reference, with `method`); slime-exact replays the case's own float32 power tables
 * and, for a case without them, torch's CPU float32 powers as core emulates them
 * (SLEEF's powf and glibc's powf, laid out as torch's loops run them: core/torchPow).
 */
export function coreSolver(mode: CoreMode, method: ScanMethod = "chunked"): CaseSolver {
  return (c: ScanCase) => {
    const precision = mode === "float64" ? "float64" : "float32";
    if (c.kind === "convention") return solveConvention(c, precision);
    const problem = caseToProblem(c, precision);
    if (mode !== "slime-exact") return solve(problem, method).outputs;
    // Without tables, solve builds torch's own (discountPowers' float32 default).
    return solve(problem, "chunked", { powTables: casePowTables(c) }).outputs;
  };
}

/** Where slime-exact takes each case's power tables from, for the report to say. */
export interface PowTablesUse {
  /** Cases replayed with the file's `float32_pow_tables`. */
  fromFile: number;
  /** Cases replayed with core's emulation of torch's CPU powers. */
  emulated: number;
  /** The emulated tables, named ("torch CPU float32 powers (AVX2, 1 thread)"). */
  emulation: string;
}

export function powTablesUse(cases: readonly GoldenCase[]): PowTablesUse {
  let fromFile = 0;
  let emulated = 0;
  for (const c of cases) {
    if (c.kind === "convention" || c.kind === "slime_dump" || c.expect_error !== undefined) continue;
    if (c.float32_pow_tables) fromFile++;
    else emulated++;
  }
  return { fromFile, emulated, emulation: `${powerSourceLabel("torch-cpu")}, emulated` };
}

/** A library-convention case: the library's own token rewards, returns and advantages. */
function solveConvention(c: ConventionCase, precision: Precision): CaseOutputs {
  const { library, estimator, batch, params } = caseToConventionProblem(c, precision);
  return { kind: "convention", ...runConvention(library, estimator, batch, params) };
}
