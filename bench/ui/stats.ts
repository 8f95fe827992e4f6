/** Medians, p95s and the number formats of bench:ui's tables. */

/** The median (upper middle for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** The 95th percentile by nearest rank: with 20 samples or fewer it is the worst. */
export function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(0.95 * sorted.length) - 1)];
}

/** Milliseconds, to a tenth below 10 ms. */
export function ms(x: number): string {
  if (!Number.isFinite(x)) return "–";
  return Math.abs(x) < 10 ? `${x.toFixed(1)} ms` : `${Math.round(x)} ms`;
}

/** A small time to two significant figures (the compute floor). */
export function fineMs(x: number): string {
  return x >= 100 ? `${Math.round(x)} ms` : `${Number(x.toPrecision(2))} ms`;
}

/** A markdown table with its columns padded to their widest cell. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, 3, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}
