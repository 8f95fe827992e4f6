/**
 * Plain sentences with their glossary words marked: each phrase's first match becomes a part
 * naming its word, the rest stays text. Pure, so the tour's prose (tour.ts, plain strings) can
 * show definitions where its words stand without markup in the strings.
 */
export interface TermPhrase {
  /** A word of docs/glossary.md (parseGlossary's `word`). */
  word: string;
  /** What stands for it in prose: case-insensitive, matched on word boundaries. */
  pattern: RegExp;
}

export type TextPart = string | { word: string; shown: string };

/**
 * `text` split into plain parts and the first match of each phrase not already in `taken`
 * (words marked in an earlier paragraph of the same passage stay plain here). Phrases are tried in
 * order; a match that overlaps one already marked is skipped. Adds the words it marks to `taken`.
 */
export function termsInText(text: string, phrases: readonly TermPhrase[], taken: Set<string>): TextPart[] {
  const marks: { start: number; end: number; word: string }[] = [];
  for (const { word, pattern } of phrases) {
    if (taken.has(word)) continue;
    const flags = pattern.flags.includes("i") ? "gi" : "g";
    for (const match of text.matchAll(new RegExp(pattern.source, flags))) {
      const start = match.index;
      const end = start + match[0].length;
      if (match[0].length === 0 || marks.some((m) => start < m.end && m.start < end)) continue;
      marks.push({ start, end, word });
      taken.add(word);
      break;
    }
  }
  marks.sort((a, b) => a.start - b.start);
  const parts: TextPart[] = [];
  let at = 0;
  for (const m of marks) {
    if (m.start > at) parts.push(text.slice(at, m.start));
    parts.push({ word: m.word, shown: text.slice(m.start, m.end) });
    at = m.end;
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}
