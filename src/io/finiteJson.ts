/**
 * Where a value about to be written as JSON holds its first NaN or ±Infinity, as a path
 * (`cases[0].chunked_float32.returns[3] (Infinity)`), or null when every number is finite.
 *
 * JSON has no NaN or Infinity: JSON.stringify writes them as `null`, silently, and a case file
 * holds plain finite numbers only (cases/SCHEMA.md), so `scanlab check` and the page's import then
 * refuse the file. Finite float32 inputs can still overflow in a float32 scan (rewards near
 * 3.4e38 with γ = 1), so the writers ask before they write.
 */
export function firstNonFinite(value: unknown, path = ""): string | null {
  if (typeof value === "number") return Number.isFinite(value) ? null : `${path} (${value})`;
  if (value === null || typeof value !== "object") return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      // Most of a case file is long arrays of numbers: test them without a recursive call each.
      if (typeof v === "number") {
        if (!Number.isFinite(v)) return `${path}[${i}] (${v})`;
        continue;
      }
      const found = firstNonFinite(v, `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  for (const [key, v] of Object.entries(value)) {
    const found = firstNonFinite(v, path ? `${path}.${key}` : key);
    if (found) return found;
  }
  return null;
}

/** The sentence an export fails with when its file would hold a non-finite number. */
export function nonFiniteOutputMessage(where: string): string {
  return `cannot be written: ${where} is not a finite number (a float32 result that overflowed), and a case file holds finite JSON numbers only (cases/SCHEMA.md); the CSV and pytest exports carry NaN and ±inf`;
}
