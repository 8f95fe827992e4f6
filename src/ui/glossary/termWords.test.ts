import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GLOSSARY } from "./glossary";

const SRC = new URL("../..", import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx$/.test(entry.name) && !/\.test\./.test(entry.name) ? [path] : [];
  });
}

/** Every glossary word the screens name: `<Term word="…">` and the controls' `term="…"`. */
function wordsUsed(): { file: string; word: string }[] {
  return sources(SRC).flatMap((file) => {
    const text = readFileSync(file, "utf8");
    return [...text.matchAll(/<Term\s+word="([^"]+)"|\sterm="([^"]+)"/g)].map((m) => ({
      file: file.slice(SRC.length),
      word: m[1] ?? m[2],
    }));
  });
}

describe("the glossary words the screens use", () => {
  const used = wordsUsed();

  it("are many, across the views", () => {
    const files = new Set(used.map((u) => u.file.split("/")[1]));
    expect(used.length).toBeGreaterThan(25);
    for (const view of ["playground", "conformance", "run", "bench", "player"]) expect(files).toContain(view);
  });

  it("are every one defined in docs/glossary.md", () => {
    const missing = used.filter((u) => !GLOSSARY.byWord.has(u.word)).map((u) => `${u.file}: ${u.word}`);
    expect(missing).toEqual([]);
  });

  it("are never given as an expression (a word the scan above could not check)", () => {
    // Field and Segmented pass on their `term`, which the scan reads where they are used; TermsText
    // marks the words of a list such as player/playerWords.ts, which playerWords.test.ts checks.
    const passOn = [
      "ui/playground/controls/Field.tsx",
      "ui/playground/controls/Segmented.tsx",
      "ui/glossary/TermsText.tsx",
    ];
    const dynamic = sources(SRC)
      .filter((file) => /<Term\s+word=\{/.test(readFileSync(file, "utf8")))
      .map((file) => file.slice(SRC.length));
    expect(dynamic.filter((file) => !passOn.includes(file))).toEqual([]);
  });
});
