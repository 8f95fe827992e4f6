import fc from "fast-check";
import LZString from "lz-string";
import { describe, expect, it } from "vitest";
import { decompressBounded } from "./lzBounded";

const seed = Number(process.env.SCANLAB_FC_SEED ?? 20261129);
const URI_SAFE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$";

describe("bounded lz-string decompression", () => {
  it("reads back whatever the library wrote, any text", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 400 }), fc.string({ unit: "binary", maxLength: 200 }), fc.json()),
        (text) => {
          const token = LZString.compressToEncodedURIComponent(text);
          expect(decompressBounded(token, 1e6)).toEqual({ ok: true, text });
        },
      ),
      { seed, numRuns: 150 },
    );
  });

  it("agrees with the library on damaged text, and never throws", () => {
    const garbage = fc.array(fc.constantFrom(...URI_SAFE, " ", "é", "."), { maxLength: 60 }).map((cs) => cs.join(""));
    fc.assert(
      fc.property(garbage, (token) => {
        const mine = decompressBounded(token, 1e6);
        let library: string | null | Error;
        try {
          library = LZString.decompressFromEncodedURIComponent(token);
        } catch (thrown) {
          library = thrown as Error; // the library throws on some damaged texts ("y")
        }
        if (mine.ok) expect(mine.text).toBe(library);
        else expect(mine.reason).toBe("damaged");
      }),
      { seed, numRuns: 500 },
    );
  });

  it("stops as soon as the output passes the bound (a decompression bomb)", () => {
    const bomb = LZString.compressToEncodedURIComponent("a".repeat(200_000));
    expect(bomb.length).toBeLessThan(1500);
    expect(decompressBounded(bomb, 10_000)).toEqual({ ok: false, reason: "too large" });
    expect(decompressBounded(bomb, 200_000)).toEqual({ ok: true, text: "a".repeat(200_000) });
    expect(decompressBounded(bomb, 199_999)).toEqual({ ok: false, reason: "too large" });
    expect(decompressBounded("y", 10)).toEqual({ ok: false, reason: "damaged" });
  });
});
