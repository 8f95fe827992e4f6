import { type ScanAlgorithm, ScanInputError } from "../core";
import type { GoldenCase, ScanCase } from "../io/caseSchema";
import { caseErrorBounds } from "./caseBounds";
import { checkDumpCase } from "./dumpCaseVerdict";
import { NOTHING_COMPARED } from "./nothingToCheck";
import { type CaseOutputs, elementName, type OutputPair, pairOutputs } from "./outputs";

/**
 * What a run is held to: the float64 truth within each element's error bound for a float64 or a
 * float32 implementation, or slime's own float32 output bit for bit.
 */
export type Expectation = "float64" | "float32" | "bit-exact";

/** Computes a case's outputs; throws a ScanInputError for input the reference rejects. */
export type CaseSolver = (c: ScanCase) => CaseOutputs | Promise<CaseOutputs>;

/** One element's figures: where it is, its error, what it is held to there, and their ratio. */
export interface ElementFigures {
  /** The element as the case file spells it: `returns[2353]` (row-major), `returns[1][17]` (ragged). */
  element: string;
  /** |computed − expected| there; Infinity for a non-finite result where the reference is finite. */
  error: number;
  /** What that element is held to: min(its bound, the file's tolerance), 0 when bit-exact. */
  tolerance: number;
  /** error / tolerance (pass ≤ 1); 0 for an exact match. */
  fraction: number;
}

/**
 * A case's verdict. Every figure names its element and is paired with that same element's
 * tolerance (docs/verdicts.md), so a pass always has `maxAbsError ≤ toleranceAtMaxError` and
 * `worst.fraction ≤ 1`.
 */
export interface CaseVerdict {
  name: string;
  kind: GoldenCase["kind"];
  /** `3x129` for a rectangular batch, `B=4 L=[5,130,257,40]` for a ragged one. */
  shape: string;
  /** Largest |computed − expected| over every compared output; null when nothing was compared. */
  maxAbsError: number | null;
  /** Where maxAbsError is (the first such element); null when nothing was compared. */
  maxErrorElement: string | null;
  /** The tolerance of the element where the error is largest: a pass has maxAbsError ≤ this. */
  toleranceAtMaxError: number | null;
  /** The same as toleranceAtMaxError (the name scripts read before `worst` existed). */
  tolerance: number | null;
  /**
   * The worst error as a fraction of its element's tolerance (pass ≤ 1): `worst.fraction`.
   * 0 for a bit-exact match, null when the case expects an error or no number was compared.
   */
  boundFraction: number | null;
  /** The element whose error is the largest fraction of its tolerance; null when nothing was compared. */
  worst: ElementFigures | null;
  /** Elements compared (every output), 0 when none. */
  compared: number;
  passed: boolean;
  /** Why it failed, or what the error case raised. */
  detail: string;
}

/**
 * Runs one case and judges every output element against its own error bound for the
 * implementation's precision and algorithm (docs/ERROR_BOUND.md), or bit for bit. A slime_dump
 * case runs no solver: its values under test are the dump's own, judged by core's replay of slime
 * whatever the mode or engine (dumpCaseVerdict).
 */
export async function checkCase(
  c: GoldenCase,
  solver: CaseSolver,
  expectation: Expectation,
  algorithm: ScanAlgorithm = "chunked",
): Promise<CaseVerdict> {
  if (c.kind === "slime_dump") return checkDumpCase(c, caseShape(c));
  const base = { name: c.name, kind: c.kind, shape: caseShape(c) };
  let outputs: CaseOutputs;
  try {
    outputs = await solver(c);
  } catch (error) {
    const raised = errorText(error);
    if (c.expect_error === undefined) return { ...base, ...NOTHING_COMPARED, passed: false, detail: raised };
    const passed = matchesExpectedError(error, c.expect_error);
    const detail = passed ? `raised ${raised}` : `raised ${raised}, expected ${c.expect_error}`;
    return { ...base, ...NOTHING_COMPARED, passed, detail };
  }
  if (c.expect_error !== undefined) {
    return { ...base, ...NOTHING_COMPARED, passed: false, detail: `expected ${c.expect_error}, got no error` };
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
  return { ...base, ...judged, detail: note && judged.passed ? note : judged.detail };
}

type Judgement = Omit<CaseVerdict, "name" | "kind" | "shape">;

/**
 * Holds every element to its own allowed error. The verdict keeps the largest error with the
 * tolerance of that same element, and the element whose error is the largest fraction of its
 * tolerance. A non-finite result where the reference is finite is an error over any tolerance
 * (Infinity); a reference that is itself NaN or ±Inf cannot check anything and fails the case.
 */
export function judgeOutputs(pairs: OutputPair[], allowed: (name: string, index: number) => number): Judgement {
  let compared = 0;
  let max: ElementFigures | null = null;
  let worst: (ElementFigures & { actual: number; reference: number }) | null = null;
  const fail = (detail: string): Judgement => ({ ...figures(), passed: false, detail });
  const figures = () => ({
    maxAbsError: max?.error ?? null,
    maxErrorElement: max?.element ?? null,
    toleranceAtMaxError: max?.tolerance ?? null,
    tolerance: max?.tolerance ?? null,
    boundFraction: worst?.fraction ?? null,
    worst: worst
      ? { element: worst.element, error: worst.error, tolerance: worst.tolerance, fraction: worst.fraction }
      : null,
    compared,
  });
  for (const pair of pairs) {
    const { actual, reference, name } = pair;
    if (actual.length !== reference.length)
      return fail(`${name}: ${actual.length} values, expected ${reference.length}`);
    for (let i = 0; i < actual.length; i++) {
      const element = elementName(pair, i);
      if (!Number.isFinite(reference[i])) {
        return fail(`${element}: the reference is ${reference[i]}, so this element cannot be checked`);
      }
      const tolerance = allowed(name, i);
      if (!(tolerance >= 0))
        return fail(`${element}: its tolerance is ${tolerance}, so this element cannot be checked`);
      if (tolerance === Number.POSITIVE_INFINITY) {
        return fail(`${element}: the error bound is not finite (the result is too ill-conditioned to check)`);
      }
      compared++;
      // NaN or ±Inf computed where the truth is finite: infinitely far from it.
      const error = Number.isFinite(actual[i]) ? Math.abs(actual[i] - reference[i]) : Number.POSITIVE_INFINITY;
      const fraction = error === 0 ? 0 : tolerance > 0 ? error / tolerance : Number.POSITIVE_INFINITY;
      if (max === null || error > max.error) max = { element, error, tolerance, fraction };
      if (worst === null || fraction > worst.fraction) {
        worst = { element, error, tolerance, fraction, actual: actual[i], reference: reference[i] };
      }
    }
  }
  // An empty batch (shape [2, 0]) has the reference's own empty result and no value to be wrong:
  // it passes with no figures and says so. A file of nothing else is refused (nothingToCheck).
  if (worst === null) return { ...figures(), passed: true, detail: "no values to compare (an empty batch)" };
  const passed = worst.fraction <= 1;
  const w: NonNullable<typeof worst> = worst;
  const detail = passed
    ? ""
    : !Number.isFinite(w.actual)
      ? `worst output: ${w.element} is ${w.actual} where ${w.reference} was expected (a non-finite result where the reference is finite is over any tolerance)`
      : w.tolerance === 0
        ? `worst output: ${w.element} is ${w.actual}, must be exactly ${w.reference}`
        : `worst output: ${w.element} is off by ${formatFraction(w.fraction)} its tolerance ${w.tolerance.toExponential(2)}`;
  return { ...figures(), passed, detail };
}

function formatFraction(fraction: number): string {
  return Number.isFinite(fraction) ? `${fraction.toPrecision(3)}×` : "infinitely many times";
}

/** Checks every case in order; `onVerdict` sees each verdict as soon as it is known. */
export async function checkCases(
  cases: readonly GoldenCase[],
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

export function caseShape(c: GoldenCase): string {
  if (c.kind === "discounted" || c.kind === "gae") return `${c.shape[0]}x${c.shape[1]}`;
  const lengths = c.kind === "slime_dump" ? c.samples.map((s) => s.loss_mask.length) : c.lengths;
  const shown = lengths.slice(0, 6).join(",");
  return `B=${lengths.length} L=[${shown}${lengths.length > 6 ? ",…" : ""}]`;
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
