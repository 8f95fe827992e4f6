import { useEffect, useState } from "react";
import { GLOSSARY } from "./glossary";
import type { Block, GlossaryEntry, Inline } from "./parseGlossary";
import "./glossary.css";

/** The element each kind of inline text is drawn in; a link to another page of docs/ is named, not followed. */
const INLINE_TAG = { text: "span", code: "code", strong: "strong", em: "em", link: "span" } as const;

/** One line of the glossary as React elements. */
function InlineText({ inline }: { inline: readonly Inline[] }) {
  return inline.map((piece, i) => {
    const Tag = INLINE_TAG[piece.kind];
    const key = `${i}-${piece.kind}`;
    const link = piece.kind === "link" ? { className: "glossary-doc", title: `docs/${piece.href}` } : {};
    return (
      <Tag key={key} {...link}>
        {piece.text}
      </Tag>
    );
  });
}

function Blocks({ blocks }: { blocks: readonly Block[] }) {
  return blocks.map((block, i) => {
    const key = `${i}-${block.kind}`;
    return block.kind === "code" ? (
      <pre key={key}>{block.text}</pre>
    ) : (
      <p key={key}>
        <InlineText inline={block.inline} />
      </p>
    );
  });
}

function sections(entries: readonly GlossaryEntry[]): { title: string; entries: GlossaryEntry[] }[] {
  const out: { title: string; entries: GlossaryEntry[] }[] = [];
  for (const entry of entries) {
    const last = out.at(-1);
    if (last && last.title === entry.section) last.entries.push(entry);
    else out.push({ title: entry.section, entries: [entry] });
  }
  return out;
}

/**
 * docs/glossary.md as a page of the app (`?view=glossary`): every word with its own anchor (the
 * Term tooltips link there), drawn from the parsed text as elements, never as HTML.
 */
export function GlossaryView() {
  // The page is drawn after the address is read, so the browser's own jump to #word found nothing yet
  // (and :target was settled then): the word is found, marked and scrolled to here, and on every later jump.
  const [target, setTarget] = useState(() => decodeURIComponent(window.location.hash.slice(1)));
  useEffect(() => {
    const follow = () => setTarget(decodeURIComponent(window.location.hash.slice(1)));
    window.addEventListener("hashchange", follow);
    return () => window.removeEventListener("hashchange", follow);
  }, []);
  useEffect(() => {
    if (target) document.getElementById(target)?.scrollIntoView();
  }, [target]);
  const parts = sections(GLOSSARY.entries);
  return (
    <article className="glossary-view" data-testid="glossary">
      <h2>{GLOSSARY.title}</h2>
      <Blocks blocks={GLOSSARY.intro} />
      <nav aria-label="Words" className="glossary-index">
        <ul>
          {GLOSSARY.entries.map((entry) => (
            <li key={entry.anchor}>
              <a href={`#${entry.anchor}`}>{entry.word}</a>
            </li>
          ))}
        </ul>
      </nav>
      {parts.map((part) => (
        <section key={part.title} aria-label={part.title}>
          <h3>{part.title}</h3>
          {part.entries.map((entry) => (
            <section
              key={entry.anchor}
              id={entry.anchor}
              className={entry.anchor === target ? "glossary-entry targeted" : "glossary-entry"}
              data-word={entry.word}
            >
              <h4>
                <InlineText inline={entry.heading} />{" "}
                <a className="glossary-anchor" href={`#${entry.anchor}`} aria-label={`Link to ${entry.word}`}>
                  #
                </a>
              </h4>
              <Blocks blocks={entry.blocks} />
            </section>
          ))}
        </section>
      ))}
    </article>
  );
}
