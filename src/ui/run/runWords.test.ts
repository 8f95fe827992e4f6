import { describe, expect, it } from "vitest";
import { GLOSSARY } from "../glossary/glossary";
import { termsInText } from "../glossary/termsInText";
import { RUN_WORDS } from "./runWords";

describe("the run view's glossary words", () => {
  it("are every one defined in docs/glossary.md", () => {
    expect(RUN_WORDS.map((w) => w.word).filter((word) => !GLOSSARY.byWord.has(word))).toEqual([]);
  });

  it("mark a verdict's words once each and keep its sentences whole", () => {
    // Sentences as the replay writes them (scanlab dump on cases/dumps/variants/chunk_carry_dropped.pt).
    const sentences = [
      "the stored kl are within their float32 bounds",
      "the stored returns depart from slime's semantics in 4 of 5 samples (0, 2, 3, 4) (worst: sample 3, token 165 off by 0.208)",
      "322 of 322 stored returns differ from slime's float32 CPU arithmetic, by up to 1.52e+8 ulp",
      "the stored returns and advantages match the chunked scan dropping the carry between chunks (BUGS.md, on slime PR #2205's chunked scan)",
      "the stored advantages are within their float32 bounds",
    ];
    const taken = new Set<string>();
    const marked: string[] = [];
    for (const sentence of sentences) {
      const parts = termsInText(sentence, RUN_WORDS, taken);
      expect(parts.map((p) => (typeof p === "string" ? p : p.shown)).join("")).toBe(sentence);
      for (const p of parts) if (typeof p !== "string") marked.push(p.word);
    }
    expect(marked).toEqual(["Bound", "ulp", "Carry", "Chunk"]);
  });
});
