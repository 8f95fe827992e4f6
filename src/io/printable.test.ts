import { describe, expect, it } from "vitest";
import { printable, printableLines, quoted } from "./printable";

describe("text from a file is printable before it reaches a terminal", () => {
  it("escapes C0, DEL, C1, line separators and bidi controls, and leaves other text alone", () => {
    expect(printable("a\u001b[2J\r\n\tb")).toBe("a\\u001b[2J\\r\\n\\tb");
    expect(printable("\u007f\u0080\u009b\u009f")).toBe("\\u007f\\u0080\\u009b\\u009f");
    expect(printable("\u202a\u202e\u2066\u2069\u200e\u200f\u061c\u2028\u2029")).toBe(
      "\\u202a\\u202e\\u2066\\u2069\\u200e\\u200f\\u061c\\u2028\\u2029",
    );
    expect(printable("γ = 0.99 — 𝔼[G] ≤ 1e-6 \\u001b")).toBe("γ = 0.99 — 𝔼[G] ≤ 1e-6 \\u001b");
  });

  it("keeps the lines of a message, quotes and cuts long names", () => {
    expect(printableLines("one\u001b\ntwo\u009b")).toBe("one\\u001b\ntwo\\u009b");
    expect(quoted("x\u001b")).toBe('"x\\u001b"');
    expect(quoted("a".repeat(100), 5)).toBe('"aaaaa…"');
  });
});
