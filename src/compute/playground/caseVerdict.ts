import { type CaseVerdict, checkCase, type Expectation } from "../../conformance/checkCase";
import type { CaseOutputs } from "../../conformance/outputs";
import type { FloatArray } from "../../core";
import type { ScanCase } from "../../io/caseSchema";
import type { Strategy } from "../../names/strategies";
import type { OutputName } from "./outputTables";
import { implementationOf, type PlaygroundResult } from "./playgroundRun";

/** The parts of a finished run the verdict reads: the chunked side's tables and what ran. */
export type JudgedRun = Pick<PlaygroundResult, "kind" | "rows" | "cols" | "lengths" | "chunked" | "ran">;

/** What the page's chunked side is held to: the file's float64 `expected`, within its precision's tolerance. */
export function pageExpectation(run: JudgedRun): Expectation {
  return run.ran.precision === "float64" ? "float64" : "float32";
}

/**
 * The page's own computed outputs of an opened case, judged against the case file's `expected`
 * exactly as `scanlab check` and the conformance view judge them (conformance's checkCase): every
 * element within its tolerance, min(its bound for what ran, the file's tolerance). slime-exact
 * runs are held to the float32 bound (the page does not replay the file's power tables). Null for
 * a library-convention case (the page shows slime's scan of it, not the library's outputs) or a
 * case whose kind is not what ran.
 */
export async function judgeOpenCase(c: ScanCase, run: JudgedRun): Promise<CaseVerdict | null> {
  if (c.kind === "convention" || c.kind !== run.kind) return null;
  const outputs = caseOutputs(run);
  // `ran.strategy` is the engine's strategy, or "chunked" for core's runs (where it is not read).
  const { algorithm } = implementationOf(run.ran.precision, run.ran.strategy as Strategy);
  return checkCase(c, () => outputs, pageExpectation(run), algorithm);
}

/** The padded `[rows, cols]` tables back in the shapes a case records (ragged rows cut to their lengths). */
function caseOutputs(run: JudgedRun): CaseOutputs {
  const table = (name: OutputName): FloatArray => {
    const t = run.chunked[name];
    if (!t) throw new Error(`the run has no ${name}`);
    return t;
  };
  const rows = (name: OutputName) =>
    Array.from({ length: run.rows }, (_, b) => table(name).subarray(b * run.cols, b * run.cols + run.lengths[b]));
  switch (run.kind) {
    case "discounted":
      return { kind: "discounted", returns: table("returns") };
    case "gae":
      return { kind: "gae", advantages: table("advantages"), returns: table("returns") };
    case "reinforce_pp":
      return { kind: "reinforce_pp", returns: rows("returns"), tokenLevelRewards: rows("token_level_rewards") };
  }
}

/** A figure in the chip: 3 significant digits. */
function short(x: number | null): string {
  if (x === null) return "–";
  if (x === 0 || !Number.isFinite(x)) return String(x);
  return x.toPrecision(3);
}

/**
 * The chip's words (docs/verdicts.md): ✓ only for a case every element of which was compared with
 * the file's `expected` and found within its tolerance, with the max abs error beside the tolerance
 * of that same element; ▲ and why otherwise.
 */
export function caseVerdictText(verdict: CaseVerdict | null): string {
  if (!verdict) return "";
  if (verdict.compared === 0) return verdict.passed ? "no values to compare (an empty batch)" : `▲ ${verdict.detail}`;
  const figures = `max abs error ${short(verdict.maxAbsError)}, tolerance there ${short(verdict.toleranceAtMaxError)}; worst error / tolerance ${short(verdict.worst?.fraction ?? null)} at ${verdict.worst?.element}`;
  if (verdict.passed) {
    return `✓ checked against the file's expected: every element within the tolerance (${figures})`;
  }
  return `▲ checked against the file's expected: ${verdict.detail} (${figures})`;
}
