import { deflateSync } from "fflate";
import { describe, expect, it } from "vitest";
import { boundedInflate } from "./boundedInflate";

const fail = (detail: string): never => {
  throw new Error(detail);
};

describe("boundedInflate", () => {
  // Bytes that barely compress (an LCG's high bytes), so the stream takes several 16 KiB pushes.
  const text = new Uint8Array(80_000);
  let x = 12345;
  for (let i = 0; i < text.length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    text[i] = x >>> 24;
  }
  const compressed = deflateSync(text, { level: 1 });

  it("gives back exactly the stated bytes, however many pushes the stream takes", () => {
    expect(compressed.length).toBeGreaterThan(3 * 16 * 1024);
    expect(boundedInflate(compressed, text.length, fail)).toEqual(text);
  });

  it("stops at the stated size plus what one push yields: 8 MiB of zeros claimed as 16 bytes", () => {
    const bomb = deflateSync(new Uint8Array(8 * 2 ** 20), { level: 1 });
    expect(() => boundedInflate(bomb, 16, fail)).toThrow("inflates to more than the 16 bytes the directory states");
  });

  it("names a stream shorter than stated, and a damaged one", () => {
    expect(() => boundedInflate(compressed, text.length + 1, fail)).toThrow(
      `inflates to ${text.length} bytes, the directory states ${text.length + 1}`,
    );
    const damaged = compressed.slice(0, 40);
    expect(() => boundedInflate(damaged, text.length, fail)).toThrow(
      /the deflate stream is damaged|inflates to \d+ bytes/,
    );
  });

  it("refuses bytes after the final block, whether the stream ends inside a byte or on a byte's edge", () => {
    const garbage = Uint8Array.from({ length: 256 }, (_, i) => (i * 37) & 255);
    const stored = deflateSync(text, { level: 0 }); // stored blocks end on a byte's edge
    for (const stream of [compressed, stored, deflateSync(new Uint8Array(0))]) {
      const size = stream === compressed || stream === stored ? text.length : 0;
      expect(boundedInflate(stream, size, fail).length).toBe(size);
      for (const extra of [garbage.subarray(0, 1), garbage]) {
        const padded = new Uint8Array(stream.length + extra.length);
        padded.set(stream);
        padded.set(extra, stream.length);
        expect(() => boundedInflate(padded, size, fail)).toThrow(
          `holds ${extra.length} bytes after the deflate stream's end (from byte ${stream.length} of its ${padded.length} compressed bytes)`,
        );
      }
    }
  });

  it("reads an empty record", () => {
    expect(boundedInflate(deflateSync(new Uint8Array(0)), 0, fail)).toEqual(new Uint8Array(0));
  });
});
