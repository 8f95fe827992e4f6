import { Term } from "./Term";
import { type TermPhrase, termsInText } from "./termsInText";

/**
 * A sentence with its glossary words marked where they first stand. `taken` carries the words
 * already marked earlier in the same passage (a tour stop's paragraphs), so each is marked once.
 */
export function TermsText({
  text,
  phrases,
  taken = new Set<string>(),
}: {
  text: string;
  phrases: readonly TermPhrase[];
  taken?: Set<string>;
}) {
  return termsInText(text, phrases, taken).map((part, i) =>
    typeof part === "string" ? (
      part
    ) : (
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed sentence, in order
      <Term word={part.word} key={i}>
        {part.shown}
      </Term>
    ),
  );
}
