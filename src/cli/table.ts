import type { CaseVerdict } from "../conformance";
import { printable } from "../io/printable";
import { alignColumns } from "./columns";

/**
 * The words of docs/verdicts.md: the largest error beside the tolerance of that same element (so a
 * pass never shows an error above its tolerance), then the worst error/tolerance and its element.
 */
export const HEADERS = ["case", "kind", "shape", "max abs error", "tolerance there", "worst err/tol", "at", "result"];

/**
 * One aligned row per case, failures followed by why. Every cell from the file (the name, the
 * detail) is escaped: a name with ESC or CR in it must not clear the screen or forge a row.
 */
export function formatTable(verdicts: CaseVerdict[]): string {
  const rows = verdicts.map((v) => [
    printable(v.name),
    printable(v.kind),
    printable(v.shape),
    formatNumber(v.maxAbsError),
    formatNumber(v.toleranceAtMaxError),
    formatFraction(v.worst?.fraction ?? null),
    v.worst ? printable(v.worst.element) : "-",
    v.passed ? "pass" : "FAIL",
  ]);
  const table = alignColumns(HEADERS, rows);
  const out = [table.header, table.rule];
  verdicts.forEach((v, i) => {
    out.push(table.rows[i]);
    if (v.detail) out.push(`    ${printable(v.detail)}`);
  });
  return out.join("\n");
}

function formatNumber(x: number | null): string {
  if (x === null) return "-";
  if (x === 0) return "0";
  if (!Number.isFinite(x)) return String(x);
  return x.toExponential(2);
}

/** The worst error as a fraction of its bound, to 2 significant digits: `0.32`, `1.5`, `4.1e-5`, `2.0e+3`. */
export function formatFraction(x: number | null): string {
  if (x === null) return "-";
  if (x === 0) return "0";
  if (!Number.isFinite(x)) return String(x);
  return x >= 0.01 && x < 100 ? x.toPrecision(2) : x.toExponential(1);
}
