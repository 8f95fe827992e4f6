/**
 * Plain-text columns for the terminal: each padded to its widest cell, two spaces apart, with no
 * trailing blanks. The header is followed by a rule of dashes as wide as each column.
 */
export function alignColumns(headers: string[], rows: string[][]): { header: string; rule: string; rows: string[] } {
  // A loop, not Math.max(...cells): a spread of 150,000 rows overflows the call stack.
  const widths = headers.map((h) => h.length);
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i], cell.length);
    });
  }
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  return { header: line(headers), rule: line(widths.map((w) => "-".repeat(w))), rows: rows.map(line) };
}
