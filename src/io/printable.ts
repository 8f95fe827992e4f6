/**
 * Characters that must never reach a terminal (or a message) raw from a file or an argument: C0
 * controls (ESC starts the sequences that clear a screen or move the cursor, CR and LF start a
 * forged line), DEL, C1 controls (0x9B is a one-byte CSI), the line and paragraph separators, and
 * the bidirectional marks, embeddings, overrides and isolates that reorder what is displayed.
 */
export function isUnprintable(code: number): boolean {
  return (
    code <= 0x1f ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x061c ||
    code === 0x200e ||
    code === 0x200f ||
    code === 0x2028 ||
    code === 0x2029 ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

const SHORT_ESCAPES: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** `text` with every character `selects` picks written as `\n`, `\u001b`, `\u202e`. */
export function escapeWhere(text: string, selects: (code: number) => boolean): string {
  let out = "";
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (!selects(code)) continue;
    out += text.slice(start, i) + (SHORT_ESCAPES[text[i]] ?? `\\u${code.toString(16).padStart(4, "0")}`);
    start = i + 1;
  }
  return start === 0 ? text : out + text.slice(start);
}

/** `text` with every control and bidi character written as a visible escape, on one line. */
export function printable(text: string): string {
  return escapeWhere(text, isUnprintable);
}

/** The same, but line breaks stay: for a multi-line message whose untrusted parts are already escaped. */
export function printableLines(text: string): string {
  return text.split("\n").map(printable).join("\n");
}

/** A string from a file, quoted and escaped for a message: `"disc\u001b[2J"`, cut after `max` characters. */
export function quoted(text: string, max = 80): string {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  return printable(JSON.stringify(cut));
}
