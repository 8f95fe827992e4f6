import { describe, expect, it } from "vitest";
import { GLOSSARY } from "../glossary/glossary";
import { termsInText } from "../glossary/termsInText";
import { TOUR } from "./tour";
import { TOUR_WORDS } from "./tourWords";

describe("the tour's glossary words", () => {
  it("are every one defined in docs/glossary.md", () => {
    expect(TOUR_WORDS.map((w) => w.word).filter((word) => !GLOSSARY.byWord.has(word))).toEqual([]);
  });

  it("mark at least one word in every stop, each at most once, and keep every sentence whole", () => {
    for (const stop of TOUR) {
      const taken = new Set<string>();
      const marked: string[] = [];
      for (const paragraph of stop.text) {
        const parts = termsInText(paragraph, TOUR_WORDS, taken);
        expect(parts.map((p) => (typeof p === "string" ? p : p.shown)).join("")).toBe(paragraph);
        for (const p of parts) if (typeof p !== "string") marked.push(p.word);
      }
      expect([stop.title, marked.length > 0]).toEqual([stop.title, true]);
      expect(new Set(marked).size).toBe(marked.length);
    }
  });
});
