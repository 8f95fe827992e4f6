import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Json, mutate, mutation, pathsOf, smallValidFile } from "../testing/caseFuzzKit";
import { CaseFileError, parseCaseFile } from "./caseFile";
import { printable } from "./printable";
import { firstInvalidUtf8 } from "./utf8";

const seed = Number(process.env.SCANLAB_FC_SEED ?? 20261129);

/** Parses, and fails the property on anything but success or a CaseFileError (a stall hits the test's timeout). */
function parsesOrExplains(input: string | Uint8Array): void {
  try {
    parseCaseFile(input, "fuzz.json");
  } catch (error) {
    if (!(error instanceof CaseFileError)) throw error;
    expect(error.message.startsWith("fuzz.json")).toBe(true);
  }
}

describe("parseCaseFile on fuzzed input throws only CaseFileError", () => {
  const valid = JSON.stringify(smallValidFile());

  it("accepts the unmutated file", () => {
    expect(parseCaseFile(valid, "small").cases).toHaveLength(3);
  });

  it("random bytes", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 400 }), parsesOrExplains), { seed, numRuns: 200 });
  });

  it("random mutations of the fields of a valid file", () => {
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (mutations) => {
        const json = mutations.reduce<Json>((root, m) => mutate(root, m), JSON.parse(valid));
        parsesOrExplains(JSON.stringify(json) ?? "");
      }),
      { seed, numRuns: 200 },
    );
  });

  it("random byte edits of a valid file", () => {
    const bytes = new TextEncoder().encode(valid);
    const edit = fc.record({
      at: fc.nat(),
      byte: fc.integer({ min: 0, max: 255 }),
      op: fc.constantFrom("set", "insert", "delete"),
    });
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 6 }), (edits) => {
        const out = Array.from(bytes);
        for (const { at, byte, op } of edits) {
          const i = at % out.length;
          if (op === "set") out[i] = byte;
          else if (op === "insert") out.splice(i, 0, byte);
          else out.splice(i, 1);
        }
        const edited = Uint8Array.from(out);
        parsesOrExplains(edited);
        const invalidAt = firstInvalidUtf8(edited);
        if (invalidAt >= 0) expect(messageOf(edited)).toContain(`invalid byte sequence at byte offset ${invalidAt} `);
      }),
      { seed, numRuns: 200 },
    );
  });

  it("a field the schema does not know, added to any object of a valid file, is reported by name", () => {
    const objects = pathsOf(JSON.parse(valid)).filter((path) => {
      const node = path.reduce<Json>((n, key) => (n as Record<string, Json>)[key], JSON.parse(valid));
      return node !== null && typeof node === "object" && !Array.isArray(node);
    });
    fc.assert(
      fc.property(fc.constantFrom(...objects), fc.string({ maxLength: 6 }), (path, name) => {
        const json = JSON.parse(valid);
        const key = `x_${name}`;
        path.reduce((n, k) => n[k], json)[key] = 0;
        expect(messageOf(JSON.stringify(json))).toContain(`${quotedKey(key)}: unknown field`);
      }),
      { seed, numRuns: 100 },
    );
  });
});

function messageOf(input: string | Uint8Array): string {
  try {
    parseCaseFile(input, "fuzz.json");
  } catch (error) {
    if (error instanceof CaseFileError) return error.message;
    throw error;
  }
  return "";
}

/** How a path names a key: `x_a` for a plain name, `["x_ b"]` otherwise. */
function quotedKey(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : `[${printable(JSON.stringify(key))}]`;
}
