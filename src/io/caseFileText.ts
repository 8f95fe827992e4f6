import type { CaseFile } from "./caseSchema";
import { nonFiniteAsText } from "./jsonNumberText";

/**
 * A case file's JSON text, one line. A `slime_dump` case may hold NaN and ±Infinity (a dump's
 * stored values), written as text (jsonNumberText); every other kind holds finite numbers only,
 * so their text is JSON.stringify's.
 */
export function caseFileText(file: CaseFile): string {
  return `${JSON.stringify(file, nonFiniteAsText)}\n`;
}
