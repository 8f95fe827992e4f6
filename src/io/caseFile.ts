import type { z } from "zod";
import { type CaseFile, caseFileSchema } from "./caseSchema";

/** A case file that could not be read: the message names the source and every field at fault. */
export class CaseFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CaseFileError";
  }
}

const MAX_LISTED_ISSUES = 10;

/** Parses and validates the text of a case file; `source` names it in error messages. */
export function parseCaseFile(text: string, source: string): CaseFile {
  let json: unknown;
  try {
    // Some editors save UTF-8 with a byte-order mark, which JSON.parse rejects.
    json = JSON.parse(text.startsWith("\uFEFF") ? text.slice(1) : text);
  } catch (error) {
    throw new CaseFileError(`${source}: not valid JSON (${(error as Error).message})`);
  }
  const parsed = caseFileSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  throw new CaseFileError(`${source}: not a valid case file\n${formatIssues(parsed.error.issues, json)}`);
}

function formatIssues(issues: z.core.$ZodIssue[], json: unknown): string {
  const lines = issues.slice(0, MAX_LISTED_ISSUES).map((issue) => {
    const where = formatPath(issue.path, json);
    return `  ${where || "(top level)"}: ${issue.message}`;
  });
  if (issues.length > MAX_LISTED_ISSUES) lines.push(`  … and ${issues.length - MAX_LISTED_ISSUES} more`);
  return lines.join("\n");
}

/** `cases[3] ("gae_small").inputs.values`: the case's name helps find it in a long file. */
function formatPath(path: PropertyKey[], json: unknown): string {
  let out = "";
  let node: unknown = json;
  for (const key of path) {
    out += typeof key === "number" ? `[${key}]` : `${out ? "." : ""}${String(key)}`;
    node = node && typeof node === "object" ? (node as Record<PropertyKey, unknown>)[key] : undefined;
    if (typeof key === "number" && out === `cases[${key}]`) {
      const name = (node as { name?: unknown } | undefined)?.name;
      if (typeof name === "string") out += ` ("${name}")`;
    }
  }
  return out;
}
