import { describe, expect, it } from "vitest";
import { GLOSSARY } from "../glossary/glossary";
import { termsInText } from "../glossary/termsInText";
import { CHART_WORDS } from "./chartWords";

describe("the legends' glossary words", () => {
  it("are every one defined in docs/glossary.md", () => {
    expect(CHART_WORDS.map((w) => w.word).filter((word) => !GLOSSARY.byWord.has(word))).toEqual([]);
  });

  it("mark the reference, a chunk and the bound once each, never the strategy's name", () => {
    const labels = [
      "serial float64 (reference)",
      "chunked float32 (wasm, chunked)",
      "chunk boundary",
      "bound",
      "carried in from later chunks",
    ];
    const taken = new Set<string>();
    const marked = labels.flatMap((label) =>
      termsInText(label, CHART_WORDS, taken).flatMap((p) => (typeof p === "string" ? [] : [`${p.word}: ${p.shown}`])),
    );
    expect(marked).toEqual(["Reference: reference", "Chunk: chunk", "Bound: bound", "Carry: carried"]);
  });
});
