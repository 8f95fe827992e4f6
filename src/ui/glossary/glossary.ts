import markdown from "../../../docs/glossary.md?raw";
import { type GlossaryEntry, parseGlossary } from "./parseGlossary";

/** docs/glossary.md itself, bundled as text and read once: the one source of every word's definition. */
export const GLOSSARY = parseGlossary(markdown);

export function glossaryEntry(word: string): GlossaryEntry | undefined {
  return GLOSSARY.byWord.get(word);
}

/** The address of a word on the glossary page. */
export function glossaryHref(word: string): string {
  const entry = glossaryEntry(word);
  return entry ? `?view=glossary#${entry.anchor}` : "?view=glossary";
}
