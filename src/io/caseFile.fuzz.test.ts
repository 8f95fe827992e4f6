import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CaseFileError, parseCaseFile } from "./caseFile";
import { type Json, mutate, mutation, smallValidFile } from "./caseFuzzKit";

const seed = Number(process.env.SCANLAB_FC_SEED ?? 20261129);

/** Parses, and fails the property on anything but success or a CaseFileError, or on a slow parse. */
function parsesOrExplains(input: string | Uint8Array): void {
  const started = performance.now();
  try {
    parseCaseFile(input, "fuzz.json");
  } catch (error) {
    if (!(error instanceof CaseFileError)) throw error;
    expect(error.message.startsWith("fuzz.json")).toBe(true);
  }
  expect(performance.now() - started).toBeLessThan(2000);
}

describe("parseCaseFile on fuzzed input throws only CaseFileError, and quickly", () => {
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
        parsesOrExplains(Uint8Array.from(out));
      }),
      { seed, numRuns: 200 },
    );
  });
});
