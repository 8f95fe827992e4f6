import { maxAbsError, ScanInputError } from "../core";
import type { ScanCase } from "../io/caseSchema";
import { type CaseOutputs, pairOutputs } from "./outputs";
import { caseTolerance } from "./tolerance";

/**
 * What a run is held to: the float64 truth within the case's float64 or float32 tolerance, or
 * slime's own float32 output bit for bit.
 */
export type Expectation = "float64" | "float32" | "bit-exact";

/** Computes a case's outputs; throws a ScanInputError for input the reference rejects. */
export type CaseSolver = (c: ScanCase) => CaseOutputs | Promise<CaseOutputs>;

export interface CaseVerdict {
  name: string;
  kind: ScanCase["kind"];
  /** `3x129` for a rectangular batch, `B=4 L=[5,130,257,40]` for a ragged one. */
  shape: string;
  /** Largest error over every compared output; null when the case expects an error. */
  maxAbsError: number | null;
  /** The allowed error at the element whose error is the largest fraction of its own bound. */
  tolerance: number | null;
  /**
   * The worst error as a fraction of its element's bound (pass ≤ 1): how much margin a pass had.
   * 0 for a bit-exact match, null when the case expects an error or no number was compared.
   */
  boundFraction: number | null;
  passed: boolean;
  /** Why it failed, or what the error case raised. */
  detail: string;
}

export async function checkCase(c: ScanCase, solver: CaseSolver, expectation: Expectation): Promise<CaseVerdict> {
  const base = { name: c.name, kind: c.kind, shape: caseShape(c) };
  let outputs: CaseOutputs;
  try {
    outputs = await solver(c);
  } catch (error) {
    const raised = errorText(error);
    if (c.expect_error === undefined) {
      return { ...base, maxAbsError: null, tolerance: null, boundFraction: null, passed: false, detail: raised };
    }
    const passed = matchesExpectedError(error, c.expect_error);
    const detail = passed ? `raised ${raised}` : `raised ${raised}, expected ${c.expect_error}`;
    return { ...base, maxAbsError: null, tolerance: null, boundFraction: null, passed, detail };
  }
  if (c.expect_error !== undefined) {
    return {
      ...base,
      maxAbsError: null,
      tolerance: null,
      boundFraction: null,
      passed: false,
      detail: `expected ${c.expect_error}, got no error`,
    };
  }

  // Only slime's scan has a bit-reproducible float32 reference; convention cases record the
  // libraries' float32 runs, whose reductions no emulation can replay bit for bit.
  const bitExact = expectation === "bit-exact" && c.kind !== "convention";
  const tolerance = bitExact ? 0 : caseTolerance(c, expectation === "float64" ? "float64" : "float32");
  let maxAbs = 0;
  let worst = "";
  for (const pair of pairOutputs(c, outputs, bitExact ? "chunked_float32" : "expected")) {
    const error = maxAbsError(pair.actual, pair.reference);
    if (!(error <= maxAbs)) {
      maxAbs = error;
      worst = pair.name;
      if (Number.isNaN(error)) break;
    }
  }
  const passed = maxAbs <= tolerance;
  const note = expectation === "bit-exact" && !bitExact ? "no bit-exact reference: held to tolerance.float32" : "";
  const failure = Number.isNaN(maxAbs)
    ? `${worst}: NaN in the result, or the wrong number of values`
    : maxAbs === Number.POSITIVE_INFINITY
      ? `${worst}: non-finite result`
      : `worst output: ${worst}`;
  const detail = passed ? note : failure;
  const boundFraction = tolerance > 0 ? maxAbs / tolerance : maxAbs === 0 ? 0 : Number.POSITIVE_INFINITY;
  return { ...base, maxAbsError: maxAbs, tolerance, boundFraction, passed, detail };
}

/** Checks every case in order; `onVerdict` sees each verdict as soon as it is known. */
export async function checkCases(
  cases: ScanCase[],
  solver: CaseSolver,
  expectation: Expectation,
  onVerdict?: (verdict: CaseVerdict, index: number) => void,
): Promise<CaseVerdict[]> {
  const verdicts: CaseVerdict[] = [];
  for (const [i, c] of cases.entries()) {
    const verdict = await checkCase(c, solver, expectation);
    verdicts.push(verdict);
    onVerdict?.(verdict, i);
  }
  return verdicts;
}

/** The closing line every runner prints: `N passed, M failed`. */
export function summaryLine(verdicts: CaseVerdict[]): string {
  const passed = verdicts.filter((v) => v.passed).length;
  return `${passed} passed, ${verdicts.length - passed} failed`;
}

export function caseShape(c: ScanCase): string {
  if (c.kind === "discounted" || c.kind === "gae") return `${c.shape[0]}x${c.shape[1]}`;
  const shown = c.lengths.slice(0, 6).join(",");
  return `B=${c.lengths.length} L=[${shown}${c.lengths.length > 6 ? ",…" : ""}]`;
}

/** The reference's form `AssertionError: …` when known, else the message. */
function errorText(error: unknown): string {
  if (error instanceof ScanInputError) return error.referenceText;
  return error instanceof Error ? error.message : String(error);
}

/** Matches `Type: message` exactly, or the message alone when the case gives no exception type. */
function matchesExpectedError(error: unknown, expected: string): boolean {
  const text = errorText(error);
  if (text === expected) return true;
  return error instanceof Error && error.message === expected;
}
