/** Number formatting shared by the charts, the heatmap, the player and their readouts. */

/** Enough digits to identify the value: 9 significant for float32, 17 for float64. */
export function formatValue(x: number, precision: "float32" | "float64"): string {
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return Object.is(x, -0) ? "-0" : "0";
  return trimExponent(x.toPrecision(precision === "float32" ? 9 : 17));
}

/** The shortest decimal that reads back as the same float64 (JavaScript's own), so that a readout's figures add up exactly. */
export function formatExact64(x: number): string {
  return Object.is(x, -0) ? "-0" : String(x);
}

/** A short magnitude for legends and error readouts: 3 significant digits, exponent past 1e±4. */
export function formatShort(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return "0";
  const a = Math.abs(x);
  if (a >= 1e-3 && a < 1e4) return String(Number(x.toPrecision(3)));
  return trimExponent(x.toExponential(2).replace(/\.?0+e/, "e"));
}

/** "1.5e-7" rather than "1.5e-07"; JavaScript already writes single-digit exponents. */
function trimExponent(s: string): string {
  return s.replace("e+", "e");
}
