import { CaseFileError, MAX_CASE_FILE_BYTES, tooLargeError } from "./caseFileError";
import { type CaseFile, type Problem, validateCaseFile } from "./caseSchema";
import { countText } from "./countText";
import { printable, quoted } from "./printable";
import { decodeUtf8, InvalidUtf8Error } from "./utf8";

// Re-exported: the CLI reads them without loading the case schema (and zod with it).
export { CaseFileError, formatBytes, MAX_CASE_FILE_BYTES, tooLargeError } from "./caseFileError";

const MAX_LISTED_PROBLEMS = 10;

/**
 * Parses and validates a case file, given as its bytes (decoded as strict UTF-8) or as text;
 * `source` names it in error messages.
 */
export function parseCaseFile(input: string | Uint8Array, source: string): CaseFile {
  const where = printable(source);
  if (input.length > MAX_CASE_FILE_BYTES) throw tooLargeError(source, input.length);
  let text: string;
  if (typeof input === "string") {
    text = input;
  } else {
    try {
      text = decodeUtf8(input);
    } catch (error) {
      if (error instanceof InvalidUtf8Error) throw new CaseFileError(`${where}: ${error.message}`);
      throw error;
    }
  }
  let json: unknown;
  try {
    // Some editors save UTF-8 with a byte-order mark, which JSON.parse rejects.
    json = JSON.parse(text.startsWith("\uFEFF") ? text.slice(1) : text);
  } catch (error) {
    throw new CaseFileError(`${where}: not valid JSON (${jsonErrorText(error as Error, text)})`);
  }
  const listed: Problem[] = [];
  let total = 0;
  const file = validateCaseFile(json, (problem) => {
    if (listed.length < MAX_LISTED_PROBLEMS) listed.push(problem);
    total += 1 + (problem.more ?? 0);
  });
  if (file) return file;
  const lines = listed.map((p) => `  ${formatPath(p.path, json) || "(top level)"}: ${printable(p.message)}`);
  if (total > listed.length) lines.push(`  … and ${countText(total - listed.length)} more problems`);
  throw new CaseFileError(`${where}: not a valid case file\n${lines.join("\n")}`);
}

/** JSON.parse's message, escaped, with the line and column when it gives a position. */
function jsonErrorText(error: Error, text: string): string {
  const message = printable(error.message);
  const position = /at position (\d+)/.exec(error.message);
  if (!position || / \(line \d+ column \d+\)/.test(error.message)) return message;
  const offset = Number(position[1]);
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return `${message}, line ${line} column ${offset - before.lastIndexOf("\n")}`;
}

/** `cases[3] ("gae_small").inputs.values`: the case's name helps find it in a long file. */
function formatPath(path: PropertyKey[], json: unknown): string {
  let out = "";
  let node: unknown = json;
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += /^[A-Za-z_$][\w$]*$/.test(String(key)) ? `${out ? "." : ""}${String(key)}` : `[${quoted(String(key))}]`;
    node = node && typeof node === "object" ? (node as Record<PropertyKey, unknown>)[key] : undefined;
    if (typeof key === "number" && out === `cases[${key}]`) {
      const name = (node as { name?: unknown } | undefined)?.name;
      if (typeof name === "string") out += ` (${quoted(name)})`;
    }
  }
  return out;
}
