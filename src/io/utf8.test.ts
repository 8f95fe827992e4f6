import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeUtf8, firstInvalidUtf8, InvalidUtf8Error } from "./utf8";

const seed = Number(process.env.SCANLAB_FC_SEED ?? 20261129);
const bytes = (...values: number[]) => new Uint8Array(values);

describe("strict UTF-8", () => {
  it("decodes valid text, dropping a byte-order mark", () => {
    expect(decodeUtf8(new TextEncoder().encode("γ = 0.99, 𝔼[G]"))).toBe("γ = 0.99, 𝔼[G]");
    expect(decodeUtf8(bytes(0xef, 0xbb, 0xbf, 0x41))).toBe("A");
  });

  it("says at which byte offset and line the first invalid sequence starts", () => {
    const text = new TextEncoder().encode('{\n"name": "aé\n b"}');
    const bad = Uint8Array.from(text);
    bad[text.indexOf(0xc3) + 1] = 0x41; // é's continuation byte replaced: the sequence starts at 0xc3
    const error = (() => {
      try {
        decodeUtf8(bad);
      } catch (e) {
        return e as InvalidUtf8Error;
      }
    })();
    expect(error).toBeInstanceOf(InvalidUtf8Error);
    expect(error?.offset).toBe(text.indexOf(0xc3));
    expect(error?.line).toBe(2);
    expect(error?.message).toBe(
      `not valid UTF-8: invalid byte sequence at byte offset ${text.indexOf(0xc3)} (line 2): 0xc3 0x41 0x0a 0x20`,
    );
  });

  it("rejects overlong forms, surrogates, code points above U+10FFFF and cut sequences", () => {
    expect(firstInvalidUtf8(bytes(0x41, 0xc0, 0x80))).toBe(1); // overlong NUL
    expect(firstInvalidUtf8(bytes(0xe0, 0x80, 0x80))).toBe(0); // overlong 3-byte
    expect(firstInvalidUtf8(bytes(0xed, 0xa0, 0x80))).toBe(0); // U+D800
    expect(firstInvalidUtf8(bytes(0xf4, 0x90, 0x80, 0x80))).toBe(0); // U+110000
    expect(firstInvalidUtf8(bytes(0x41, 0x42, 0xe2, 0x82))).toBe(2); // cut at the end
    expect(firstInvalidUtf8(bytes(0xf0, 0x9d, 0x94, 0xbc))).toBe(-1); // 𝔼
  });

  it("agrees with the platform's fatal decoder on any bytes, and everything before the offset is valid", () => {
    const mostlyText = fc.array(
      fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80)),
      { maxLength: 40 },
    );
    fc.assert(
      fc.property(mostlyText, (values) => {
        const input = Uint8Array.from(values);
        const offset = firstInvalidUtf8(input);
        let platformValid = true;
        try {
          new TextDecoder("utf-8", { fatal: true }).decode(input);
        } catch {
          platformValid = false;
        }
        expect(offset === -1).toBe(platformValid);
        if (offset >= 0) expect(firstInvalidUtf8(input.subarray(0, offset))).toBe(-1);
      }),
      { seed, numRuns: 2000 },
    );
  });
});
