/**
 * docs/glossary.md read as data: every `###` heading is one word, its text up to the first
 * paragraph break the definition the screens show beside that word. Pure (text in, entries out),
 * so the page, the unit tests and the e2e specs read the same file the same way.
 */

/** A piece of one line of Markdown: plain text, `code`, **strong**, _emphasis_ or a [link](target). */
export type Inline =
  | { kind: "text"; text: string }
  | { kind: "code"; text: string }
  | { kind: "strong"; text: string }
  | { kind: "em"; text: string }
  | { kind: "link"; text: string; href: string };

/** A paragraph (its lines joined) or a fenced code block (kept line by line). */
export type Block = { kind: "paragraph"; inline: Inline[] } | { kind: "code"; text: string };

export interface GlossaryEntry {
  /** The key the screens use: the heading without its notation (backticked symbols) and its parenthesis. */
  word: string;
  /** The heading as written, as inline pieces. */
  heading: Inline[];
  /** The `##` section the word stands in. */
  section: string;
  /** The id of the word's place on the glossary page. */
  anchor: string;
  /** The first paragraph as plain text: what a tooltip shows. */
  definition: string;
  blocks: Block[];
}

export interface Glossary {
  title: string;
  /** The paragraphs before the first section. */
  intro: Block[];
  entries: GlossaryEntry[];
  /** The entries by word. */
  byWord: ReadonlyMap<string, GlossaryEntry>;
}

// One token at a time, earliest first: code spans before the rest, so `s_c` is never read as emphasis.
const INLINE = /`([^`]+)`|\*\*([^*]+)\*\*|\[([^\]]+)\]\(([^)\s]+)\)|(?<![\p{L}\p{N}_])_([^_]+?)_(?![\p{L}\p{N}_])/gu;

/** One line (or joined lines) of Markdown as inline pieces. */
export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    const at = match.index ?? 0;
    if (at > last) out.push({ kind: "text", text: text.slice(last, at) });
    const [, code, strong, linkText, href, em] = match;
    if (code !== undefined) out.push({ kind: "code", text: code });
    else if (strong !== undefined) out.push({ kind: "strong", text: strong });
    else if (linkText !== undefined) out.push({ kind: "link", text: linkText, href: href ?? "" });
    else out.push({ kind: "em", text: em ?? "" });
    last = at + match[0].length;
  }
  if (last < text.length) out.push({ kind: "text", text: text.slice(last) });
  return out;
}

/** The text a reader sees: the pieces without their Markdown marks. */
export function plainText(inline: readonly Inline[]): string {
  return inline.map((piece) => piece.text).join("");
}

/** The word of a heading: "Carry `s_c`" is Carry, "Local sum (local scan)" is Local sum. */
export function headingWord(heading: string): string {
  return heading
    .replace(/`[^`]*`/g, " ")
    .replace(/\([^)]*\)\s*$/, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** The page anchor of a word: lower case, letters and digits, words joined by "-". */
export function anchorOf(word: string): string {
  return word
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "");
}

function blocksOf(lines: readonly string[]): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let code: string[] | null = null;
  const flush = () => {
    if (paragraph.length) blocks.push({ kind: "paragraph", inline: parseInline(paragraph.join(" ")) });
    paragraph = [];
  };
  for (const line of lines) {
    if (line.startsWith("```")) {
      if (code) {
        blocks.push({ kind: "code", text: code.join("\n") });
        code = null;
      } else {
        flush();
        code = [];
      }
    } else if (code) code.push(line);
    else if (line.trim() === "") flush();
    else paragraph.push(line.trim());
  }
  flush();
  if (code) blocks.push({ kind: "code", text: code.join("\n") });
  return blocks;
}

/** Reads the glossary's Markdown; a word written twice is an error (one word, one meaning). */
export function parseGlossary(markdown: string): Glossary {
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
  let title = "";
  let section = "";
  const intro: string[] = [];
  const entries: GlossaryEntry[] = [];
  let current: { heading: string; section: string; lines: string[] } | null = null;
  const finish = () => {
    if (!current) return;
    const blocks = blocksOf(current.lines);
    const first = blocks.find((block) => block.kind === "paragraph");
    const word = headingWord(current.heading);
    entries.push({
      word,
      heading: parseInline(current.heading),
      section: current.section,
      anchor: anchorOf(word),
      definition: first ? plainText(first.inline) : "",
      blocks,
    });
    current = null;
  };
  let inCode = false;
  for (const line of lines) {
    if (line.startsWith("```")) inCode = !inCode;
    const heading = inCode ? null : /^(#{1,3}) (.+)$/.exec(line);
    if (heading) {
      finish();
      const [, hashes, text] = heading;
      if (hashes === "#") title = text.trim();
      else if (hashes === "##") section = text.trim();
      else current = { heading: text.trim(), section, lines: [] };
      continue;
    }
    if (current) current.lines.push(line);
    else if (!section) intro.push(line);
  }
  finish();
  const byWord = new Map<string, GlossaryEntry>();
  for (const entry of entries) {
    if (byWord.has(entry.word)) throw new Error(`docs/glossary.md: "${entry.word}" is defined twice`);
    byWord.set(entry.word, entry);
  }
  return { title, intro: blocksOf(intro), entries, byWord };
}
