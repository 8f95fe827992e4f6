/**
 * Plain-text columns for the terminal: each padded to its widest cell, two spaces apart, with no
 * trailing blanks. The header is followed by a rule of dashes as wide as each column.
 */
export function alignColumns(headers: string[], rows: string[][]): { header: string; rule: string; rows: string[] } {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  return { header: line(headers), rule: line(widths.map((w) => "-".repeat(w))), rows: rows.map(line) };
}
