import { type ScanAlgorithm, ScanInputError } from "../core";
import type { ScanCase } from "../io/caseSchema";
import { caseErrorBounds } from "./caseBounds";
import { type CaseOutputs, type OutputPair, pairOutputs } from "./outputs";

/**
 * What a run is held to: the float64 truth within each element's error bound for a float64 or a
 * float32 implementation, or slime's own float32 output bit for bit.
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

/**
 * Runs one case and judges every output element against its own error bound for the
 * implementation's precision and algorithm (docs/ERROR_BOUND.md), or bit for bit.
 */
export async function checkCase(
  c: ScanCase,
  solver: CaseSolver,
  expectation: Expectation,
  algorithm: ScanAlgorithm = "chunked",
): Promise<CaseVerdict> {
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
  const precision = expectation === "float64" ? "float64" : "float32";
  const order = outputs.kind === "convention" ? outputs.order : undefined;
  const bounds = bitExact ? undefined : caseErrorBounds(c, precision, algorithm, order);
  const fileTolerance = bitExact ? undefined : c.tolerance?.[precision];
  const judged = judgeOutputs(pairOutputs(c, outputs, bitExact ? "chunked_float32" : "expected"), (name, i) => {
    if (!bounds) return 0;
    const bound = bounds.get(name)?.[i] ?? Number.NaN;
    // A file's own tolerance may tighten the check, never loosen it past the bound.
    return fileTolerance === undefined ? bound : Math.min(bound, fileTolerance);
  });
  const note = expectation === "bit-exact" && !bitExact ? "no bit-exact reference: held to the float32 bound" : "";
  return { ...base, ...judged, detail: judged.passed ? note : judged.detail };
}

type Judgement = Pick<CaseVerdict, "maxAbsError" | "tolerance" | "boundFraction" | "passed" | "detail">;

/**
 * Holds every element to its own allowed error. The verdict keeps the largest error, and the
 * element whose error is the largest fraction of what it is allowed (its bound and the fraction).
 */
function judgeOutputs(pairs: OutputPair[], allowed: (name: string, index: number) => number): Judgement {
  let maxAbs = 0;
  let worst = { fraction: 0, tolerance: 0, where: "", actual: 0, reference: 0 };
  for (const pair of pairs) {
    const { actual, reference, name } = pair;
    if (actual.length !== reference.length) {
      const detail = `${name}: ${actual.length} values, expected ${reference.length}`;
      return { maxAbsError: Number.NaN, tolerance: null, boundFraction: null, passed: false, detail };
    }
    for (let i = 0; i < actual.length; i++) {
      const error = Math.abs(actual[i] - reference[i]);
      const tolerance = allowed(name, i);
      if (Number.isNaN(error)) {
        const detail = `${name}[${i}]: ${actual[i]} where ${reference[i]} was expected`;
        return { maxAbsError: Number.NaN, tolerance, boundFraction: null, passed: false, detail };
      }
      if (!Number.isFinite(tolerance)) {
        const detail = `${name}[${i}]: the error bound is not finite (the result is too ill-conditioned to check)`;
        return { maxAbsError: error, tolerance, boundFraction: null, passed: false, detail };
      }
      if (error > maxAbs) maxAbs = error;
      const fraction = error === 0 ? 0 : tolerance > 0 ? error / tolerance : Number.POSITIVE_INFINITY;
      if (fraction > worst.fraction || worst.where === "") {
        worst = { fraction, tolerance, where: `${name}[${i}]`, actual: actual[i], reference: reference[i] };
      }
    }
  }
  const passed = worst.fraction <= 1;
  const detail = passed
    ? ""
    : worst.tolerance === 0
      ? `worst output: ${worst.where} is ${worst.actual}, must be exactly ${worst.reference}`
      : `worst output: ${worst.where} is off by ${formatFraction(worst.fraction)} its bound ${worst.tolerance.toExponential(2)}`;
  return { maxAbsError: maxAbs, tolerance: worst.tolerance, boundFraction: worst.fraction, passed, detail };
}

function formatFraction(fraction: number): string {
  return Number.isFinite(fraction) ? `${fraction.toPrecision(3)}×` : "infinitely many times";
}

/** Checks every case in order; `onVerdict` sees each verdict as soon as it is known. */
export async function checkCases(
  cases: ScanCase[],
  solver: CaseSolver,
  expectation: Expectation,
  onVerdict?: (verdict: CaseVerdict, index: number) => void,
  algorithm: ScanAlgorithm = "chunked",
): Promise<CaseVerdict[]> {
  const verdicts: CaseVerdict[] = [];
  for (const [i, c] of cases.entries()) {
    const verdict = await checkCase(c, solver, expectation, algorithm);
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
