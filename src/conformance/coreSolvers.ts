import { type Precision, runConvention, type ScanMethod, solve } from "../core";
import type { ConventionCase, ScanCase } from "../io/caseSchema";
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
 * serial reference, with `method`); slime-exact replays the case's own float32 power tables.
 */
export function coreSolver(mode: CoreMode, method: ScanMethod = "chunked"): CaseSolver {
  return (c: ScanCase) => {
    const precision = mode === "float64" ? "float64" : "float32";
    if (c.kind === "convention") return solveConvention(c, precision);
    const problem = caseToProblem(c, precision);
    if (mode !== "slime-exact") return solve(problem, method).outputs;
    const powTables = casePowTables(c);
    if (!powTables && c.expect_error === undefined) {
      throw new Error("the case has no float32_pow_tables, which a bit-exact replay of slime needs");
    }
    return solve(problem, "chunked", { powTables }).outputs;
  };
}

/** A library-convention case: the library's own token rewards, returns and advantages. */
function solveConvention(c: ConventionCase, precision: Precision): CaseOutputs {
  const { library, estimator, batch, params } = caseToConventionProblem(c, precision);
  return { kind: "convention", ...runConvention(library, estimator, batch, params) };
}
