import type { CaseRow } from "../../compute/conformance/runConformance";

/** A row's `data-state`: judged and passed, judged and failed, or not judged yet. */
export type RowState = "pass" | "fail" | "pending";

export function rowState(row: CaseRow | undefined): RowState {
  if (!row) return "pending";
  return row.verdict.passed ? "pass" : "fail";
}

/** An absolute error or tolerance: `3.05e-7`, `0`, or empty when there is none. */
export function formatError(value: number | null | undefined): string {
  if (value === undefined || value === null) return "";
  if (value === 0) return "0";
  if (!Number.isFinite(value)) return String(value);
  return value.toExponential(2);
}

/**
 * The worst error as a fraction of its bound, two significant digits: `0.031`, `1.5`, `0` for an
 * exact match; very small or large fractions in exponent form (`4.2e-5`, `3.1e+4`).
 */
export function formatBoundFraction(value: number | null | undefined): string {
  if (value === undefined || value === null) return "";
  if (value === 0) return "0";
  if (Number.isNaN(value)) return "NaN";
  if (value === Number.POSITIVE_INFINITY) return "∞";
  if (value < 1e-3 || value >= 1e4) return value.toExponential(1);
  return String(Number(value.toPrecision(2)));
}

/** A case's run time in at most four digits: `0.6 ms`, `26.2 ms`, `105 ms`, `1.23 s`. */
export function formatMillis(millis: number | undefined): string {
  if (millis === undefined) return "";
  if (millis < 99.95) return `${millis.toFixed(1)} ms`;
  if (millis < 999.5) return `${Math.round(millis)} ms`;
  return `${(millis / 1000).toPrecision(3)} s`;
}
