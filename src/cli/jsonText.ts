import { escapeWhere, isUnprintable } from "../io/printable";

/**
 * The report as JSON. JSON has no Infinity or NaN: they are written as text, so an overflow is not
 * mistaken for "no value". JSON.stringify escapes C0 controls but leaves DEL, C1 controls and bidi
 * overrides raw; they only occur inside strings, where `\uXXXX` is the same JSON, safe to print.
 * `indent` 0: one line (JSON lines).
 */
export function jsonText(value: unknown, indent = 2): string {
  return escapeWhere(JSON.stringify(value, nonFiniteAsText, indent), (code) => code > 0x1f && isUnprintable(code));
}

function nonFiniteAsText(_key: string, value: unknown): unknown {
  return typeof value === "number" && !Number.isFinite(value) ? String(value) : value;
}
