/**
 * NaN and ±Infinity in a case file. JSON has neither, and JSON.stringify would write them as
 * `null`; a slime dump's stored values can hold them (a diverged step is exactly what a check must
 * catch), so a `slime_dump` case writes them as the strings "NaN", "Infinity" and "-Infinity",
 * the spelling `scanlab --json` already uses for its reports.
 */
export const NON_FINITE_TEXT = ["NaN", "Infinity", "-Infinity"] as const;

/** A JSON value as a number: a number as it is, one of NON_FINITE_TEXT as its value, else undefined. */
export function numberFromJson(value: unknown): number | undefined {
  if (typeof value === "number") return value;
  if (value === "NaN") return Number.NaN;
  if (value === "Infinity") return Number.POSITIVE_INFINITY;
  if (value === "-Infinity") return Number.NEGATIVE_INFINITY;
  return undefined;
}

/** JSON.stringify's replacer for a file that may hold non-finite numbers: they become their text. */
export function nonFiniteAsText(_key: string, value: unknown): unknown {
  return typeof value === "number" && !Number.isFinite(value) ? String(value) : value;
}
