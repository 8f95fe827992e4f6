/**
 * Exact values as short as they can be while still naming the number: the shortest decimal that
 * rounds back to the same float32 (numpy's repr of a float32), or to the same float64 (JavaScript's
 * own String). 0.1 in float32 shows as 0.1, 1/3 as 0.33333334; no trailing zeros.
 */
export function formatExact(x: number, precision: "float32" | "float64"): string {
  if (!Number.isFinite(x)) return String(x);
  if (Object.is(x, -0)) return "-0";
  if (precision === "float64") return String(x);
  const f = Math.fround(x);
  for (let digits = 1; digits < 9; digits++) {
    const text = f.toPrecision(digits);
    if (Math.fround(Number(text)) === f) return String(Number(text));
  }
  return String(Number(f.toPrecision(9)));
}
