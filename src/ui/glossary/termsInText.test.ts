import { describe, expect, it } from "vitest";
import { termsInText } from "./termsInText";

const PHRASES = [
  { word: "Carry", pattern: /\bcarr(?:y|ies)\b/i },
  { word: "Chunk", pattern: /\bchunks?\b/i },
  { word: "Local sum", pattern: /\blocal sums?\b/i },
];

describe("termsInText", () => {
  it("marks each phrase's first match and keeps the text whole", () => {
    const text = "The carry into chunk 1 adds to every local sum; the carries chain the chunks.";
    const parts = termsInText(text, PHRASES, new Set());
    expect(parts).toEqual([
      "The ",
      { word: "Carry", shown: "carry" },
      " into ",
      { word: "Chunk", shown: "chunk" },
      " 1 adds to every ",
      { word: "Local sum", shown: "local sum" },
      "; the carries chain the chunks.",
    ]);
    expect(parts.map((p) => (typeof p === "string" ? p : p.shown)).join("")).toBe(text);
  });

  it("leaves plain a word already marked earlier in the passage, and marks nothing inside another word", () => {
    const taken = new Set<string>();
    termsInText("A chunk.", PHRASES, taken);
    expect(termsInText("Chunks and a carrying pole.", PHRASES, taken)).toEqual(["Chunks and a carrying pole."]);
    expect(taken).toEqual(new Set(["Chunk"]));
  });

  it("skips a match that overlaps one already marked", () => {
    const phrases = [
      { word: "Local sum", pattern: /\blocal sum\b/i },
      { word: "Sum", pattern: /\bsum\b/i },
    ];
    expect(termsInText("local sum, then a sum", phrases, new Set())).toEqual([
      { word: "Local sum", shown: "local sum" },
      ", then a ",
      { word: "Sum", shown: "sum" },
    ]);
  });
});
