import { describe, expect, it } from "vitest";
import { frame } from "../../compute/player/frame";
import { TOUR } from "../../compute/player/tour";
import { discountedProblem, gaeProblem, reinforceProblem, traceOf } from "../../testing/playerTestKit";
import { GLOSSARY } from "../glossary/glossary";
import { termsInText } from "../glossary/termsInText";
import { PLAYER_WORDS } from "./playerWords";

describe("the tour's glossary words", () => {
  it("are every one defined in docs/glossary.md", () => {
    expect(PLAYER_WORDS.map((w) => w.word).filter((word) => !GLOSSARY.byWord.has(word))).toEqual([]);
  });

  it("mark at least one word in every stop, each at most once, and keep every sentence whole", () => {
    for (const stop of TOUR) {
      const taken = new Set<string>();
      const marked: string[] = [];
      for (const paragraph of stop.text) {
        const parts = termsInText(paragraph, PLAYER_WORDS, taken);
        expect(parts.map((p) => (typeof p === "string" ? p : p.shown)).join("")).toBe(paragraph);
        for (const p of parts) if (typeof p !== "string") marked.push(p.word);
      }
      expect([stop.title, marked.length > 0]).toEqual([stop.title, true]);
      expect(new Set(marked).size).toBe(marked.length);
    }
  });
});

describe("the step captions' glossary words", () => {
  it("mark a word in most captions and keep every caption whole", () => {
    for (const problem of [discountedProblem(2, 14, 4), gaeProblem(2, 9, 4), reinforceProblem([9, 6], 4)]) {
      const trace = traceOf(problem);
      let withWords = 0;
      for (let cursor = 0; cursor < trace.steps.length; cursor++) {
        const caption = frame(trace, cursor, 0).caption;
        const parts = termsInText(caption, PLAYER_WORDS, new Set());
        expect(parts.map((p) => (typeof p === "string" ? p : p.shown)).join("")).toBe(caption);
        if (parts.some((p) => typeof p !== "string")) withWords++;
      }
      expect(withWords / trace.steps.length, problem.kind).toBeGreaterThan(0.5);
    }
  });
});
