import type { GoldenCase } from "../io/caseSchema";

/** Values a case compares: B·T for a rectangular batch, the sum of the lengths for a ragged one. */
export function caseTokens(c: GoldenCase): number {
  if (c.kind === "discounted" || c.kind === "gae") return c.shape[0] * c.shape[1];
  if (c.kind === "slime_dump") return c.samples.reduce((a, s) => a + s.loss_mask.length, 0);
  return c.lengths.reduce((a, b) => a + b, 0);
}

/**
 * Why a file has nothing to check, or null. A runner reads a finished run as "checked and right": a
 * file with no cases, or whose cases hold no number to compare and expect no error, must be refused
 * (the CLI with status 2, the conformance view with its error), never shown as passed.
 */
export function nothingToCheck(cases: readonly GoldenCase[], source: string): string | null {
  if (cases.length === 0) return `no cases in ${source}: nothing to check`;
  if (cases.every((c) => (c.kind === "slime_dump" || c.expect_error === undefined) && caseTokens(c) === 0)) {
    return `nothing to check in ${source}: every case has 0 tokens and expects no error`;
  }
  return null;
}

/** The figures of a verdict that compared no number: an error case, a solver that threw. */
export const NOTHING_COMPARED = {
  maxAbsError: null,
  maxErrorElement: null,
  toleranceAtMaxError: null,
  tolerance: null,
  boundFraction: null,
  worst: null,
  compared: 0,
} as const;
