import { parseChunkSize } from "../playground/controls/controlMath";

/** Text typed into the player's number fields, checked before any edit is tried. */

export type Checked = { ok: true; value: number } | { ok: false; reason: string };

/** A typed number, refused with the field's name: empty, not a number, or outside [min, max] (and whole, if asked). */
export function parseField(
  field: string,
  text: string,
  { min, max, whole = false }: { min: number; max: number; whole?: boolean },
): Checked {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: false, reason: `${field} is empty; type a number from ${min} to ${max}` };
  const value = Number(trimmed);
  if (!Number.isFinite(value)) return { ok: false, reason: `${field}: "${trimmed}" is not a number` };
  if (whole && !Number.isInteger(value)) return { ok: false, reason: `${field}: ${trimmed} is not a whole number` };
  if (value < min || value > max) return { ok: false, reason: `${field}: ${trimmed} is outside [${min}, ${max}]` };
  return { ok: true, value };
}

/** The chunk size as typed: the playground's own rule (a whole number from 1 to its largest), named as the player's field. */
export function parseChunkField(text: string): Checked {
  const checked = parseChunkSize(text);
  return checked.ok ? checked : { ok: false, reason: `Chunk size C: ${checked.reason}` };
}
