import { describe, expect, it } from "vitest";
import { type ByteSource, chunkedReads, freshBytesSource } from "./byteSource";

const bytes = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 7 + (i >> 8)) & 0xff);

/** The same file without readInto: chunkedReads keeps a fresh chunk per storage. */
function withoutReadInto(source: ByteSource): ByteSource {
  return { name: source.name, size: source.size, read: source.read, readsAreFresh: true };
}

describe("chunkedReads", () => {
  for (const [name, source] of [
    ["one shared chunk (readInto)", freshBytesSource(bytes, "f")],
    ["a fresh chunk per storage", withoutReadInto(freshBytesSource(bytes, "f"))],
  ] as const) {
    it(`${name}: interleaved small reads of two storages give their bytes, each a copy of its own`, () => {
      const a = chunkedReads(source, 150_000);
      const b = chunkedReads(source, 300_000);
      const reads: [typeof a, number, number][] = [
        [a, 0, 100],
        [b, 150_000, 64],
        [a, 100, 4000],
        [b, 150_064, 1000],
        [a, 70_000, 16],
        [b, 299_990, 10],
        [a, 149_990, 10],
      ];
      const got = reads.map(([read, offset, length]) => read(offset, length));
      got.forEach((out, k) => {
        const [, offset, length] = reads[k];
        expect(Array.from(out)).toEqual(Array.from(bytes.subarray(offset, offset + length)));
      });
      // A copy: writing one read changes no later read of the same bytes.
      got[0].fill(0);
      expect(Array.from(a(0, 100))).toEqual(Array.from(bytes.subarray(0, 100)));
    });
  }

  it("two files read in turn through the one shared chunk each give their own bytes", () => {
    const other = bytes.map((x) => 255 - x);
    const a = chunkedReads(freshBytesSource(bytes, "a"), 300_000);
    const b = chunkedReads(freshBytesSource(other, "b"), 300_000);
    expect(Array.from(a(1000, 8))).toEqual(Array.from(bytes.subarray(1000, 1008)));
    expect(Array.from(b(1000, 8))).toEqual(Array.from(other.subarray(1000, 1008)));
    expect(Array.from(a(1008, 8))).toEqual(Array.from(bytes.subarray(1008, 1016)));
  });

  it("a read past the file's end gives the bytes there are", () => {
    const read = chunkedReads(freshBytesSource(bytes.subarray(0, 1000), "f"), 2000);
    expect(read(900, 50).length).toBe(50);
    expect(read(990, 50).length).toBe(10);
  });

  it("reads each storage's chunk once when the views of eight storages take turns (a sample's fields)", () => {
    let reads = 0;
    const source = freshBytesSource(bytes, "f");
    const counted: ByteSource = {
      ...source,
      read: source.read,
      readInto(offset, target) {
        reads++;
        return source.readInto?.(offset, target) ?? 0;
      },
    };
    // Eight storages of 30,000 bytes, each read 4 bytes at a time, sample after sample.
    const storages = Array.from({ length: 8 }, (_, k) => ({
      start: k * 30_000,
      read: chunkedReads(counted, (k + 1) * 30_000),
    }));
    for (let at = 0; at < 4000; at += 4)
      for (const { start, read } of storages) {
        const got = read.elements(start + at, 1, "int32") as Int32Array;
        expect(got[0]).toBe(new DataView(bytes.buffer, start + at, 4).getInt32(0, true));
      }
    // One chunk per storage (one shared chunk was read again at every field: 8,000 reads).
    expect(reads).toBe(8);
  });
});
