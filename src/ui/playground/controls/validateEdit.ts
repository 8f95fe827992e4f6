import { type PlaygroundState, parsePlaygroundState } from "../../../io/playgroundState";
import type { Parsed } from "./controlMath";

/**
 * Parses a typed number and checks the state it would make against the playground's schema, so
 * every limit (γ in [0, 1], rows × tokens, chunk size) is stated once, in io, and a refusal
 * names the field and the reason.
 */
export function parseForState(label: string, text: string, build: (value: number) => PlaygroundState): Parsed {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: false, reason: `${label} is empty` };
  const value = Number(trimmed);
  if (!Number.isFinite(value)) return { ok: false, reason: `${label}: "${trimmed}" is not a number` };
  const checked = parsePlaygroundState(build(value));
  if (!checked.ok) return { ok: false, reason: `${label}: ${checked.error.message}` };
  return { ok: true, value };
}
