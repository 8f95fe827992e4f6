import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { anchorOf, headingWord, parseGlossary, parseInline, plainText } from "./parseGlossary";

const SAMPLE = `# Glossary

Intro line one
and two.

## The scan

### Carry \`s_c\`

What comes after: \`s_c\` enters as **one** _power_ of [d](x.md).

\`\`\`
### not a heading
\`\`\`

### Local sum (local scan)

A chunk on its own.
`;

describe("parseGlossary", () => {
  it("reads the words, their sections, anchors and first paragraphs", () => {
    const g = parseGlossary(SAMPLE);
    expect(g.title).toBe("Glossary");
    expect(g.entries.map((e) => e.word)).toEqual(["Carry", "Local sum"]);
    const carry = g.byWord.get("Carry");
    expect(carry?.section).toBe("The scan");
    expect(carry?.anchor).toBe("carry");
    expect(carry?.definition).toBe("What comes after: s_c enters as one power of d.");
    expect(carry?.blocks.map((b) => b.kind)).toEqual(["paragraph", "code"]);
    expect(g.intro).toEqual([{ kind: "paragraph", inline: [{ kind: "text", text: "Intro line one and two." }] }]);
  });

  it("refuses a word defined twice", () => {
    expect(() => parseGlossary("## A\n\n### Word\n\nOne.\n\n### Word (again)\n\nTwo.\n")).toThrow(/defined twice/);
  });

  it("reads inline Markdown without taking snake_case for emphasis", () => {
    expect(parseInline("a `s_prev` and float32_pow_tables, _last_ [x](y.md) **b**")).toEqual([
      { kind: "text", text: "a " },
      { kind: "code", text: "s_prev" },
      { kind: "text", text: " and float32_pow_tables, " },
      { kind: "em", text: "last" },
      { kind: "text", text: " " },
      { kind: "link", text: "x", href: "y.md" },
      { kind: "text", text: " " },
      { kind: "strong", text: "b" },
    ]);
    expect(plainText(parseInline("**x** `y`"))).toBe("x y");
  });

  it("keys a heading by its word", () => {
    expect(headingWord("Discount `d` (γ, or γλ for GAE)")).toBe("Discount");
    expect(headingWord("Error / tolerance")).toBe("Error / tolerance");
    expect(anchorOf("Error / tolerance")).toBe("error-tolerance");
    expect(anchorOf("Serial ×2")).toBe("serial-2");
  });

  it("reads docs/glossary.md: every word defined, every anchor distinct", () => {
    const g = parseGlossary(readFileSync(new URL("../../../docs/glossary.md", import.meta.url), "utf8"));
    expect(g.entries.length).toBeGreaterThan(30);
    for (const entry of g.entries) expect(entry.definition, entry.word).not.toBe("");
    expect(new Set(g.entries.map((e) => e.anchor)).size).toBe(g.entries.length);
  });
});
