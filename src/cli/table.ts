import type { CaseVerdict } from "../conformance";

const HEADERS = ["case", "kind", "shape", "max abs err", "tolerance", "result"];

/** One aligned row per case, failures followed by why. */
export function formatTable(verdicts: CaseVerdict[]): string {
  const rows = verdicts.map((v) => [
    v.name,
    v.kind,
    v.shape,
    formatNumber(v.maxAbsError),
    formatNumber(v.tolerance),
    v.passed ? "pass" : "FAIL",
  ]);
  const widths = HEADERS.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  const out = [line(HEADERS), line(widths.map((w) => "-".repeat(w)))];
  verdicts.forEach((v, i) => {
    out.push(line(rows[i]));
    if (v.detail) out.push(`    ${v.detail}`);
  });
  return out.join("\n");
}

function formatNumber(x: number | null): string {
  if (x === null) return "-";
  if (x === 0) return "0";
  return x.toExponential(2);
}
