import { describe, expect, it } from "vitest";
import { openBlob, ReadBuffers, WHOLE_CHUNK_BYTES } from "./blobSource";

const fileOf = (size: number, seed: number) => {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + seed) & 255;
  return { blob: new Blob([bytes]), bytes };
};

/** Byte for byte (toEqual walks megabytes element by element, for minutes). */
const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.length).equals(b);

describe("a run folder's files read into reused buffers (ReadBuffers)", () => {
  it("reads each file whole, at once beside others, and a later file into a buffer given back", async () => {
    const buffers = new ReadBuffers();
    // Two files at once (a step's train and rollout dumps), each larger than one read brings.
    const a = fileOf(3_000_001, 1);
    const b = fileOf(2_500_000, 2);
    const [ra, rb] = await Promise.all([buffers.read(a.blob), buffers.read(b.blob)]);
    expect(same(ra, a.bytes)).toBe(true);
    expect(same(rb, b.bytes)).toBe(true);
    buffers.giveBack(ra);
    // A slightly smaller file takes the buffer given back, not a new one.
    const c = fileOf(2_900_000, 3);
    const rc = await buffers.read(c.blob);
    expect(rc.buffer).toBe(ra.buffer);
    expect(same(rc, c.bytes)).toBe(true);
  });

  it("opens a file read whole as views of the buffer, released back to the pool", async () => {
    const buffers = new ReadBuffers();
    const a = fileOf(100_000, 4);
    const source = await openBlob(a.blob, "a.pt", { buffers });
    expect(source.size).toBe(100_000);
    expect(same(source.read(10, 5), a.bytes.subarray(10, 15))).toBe(true);
    source.release?.();
    const b = fileOf(90_000, 5);
    const again = await openBlob(b.blob, "b.pt", { buffers });
    expect(same(again.read(0, 90_000), b.bytes)).toBe(true);
  });

  it("keeps a few free buffers, dropping the smallest", async () => {
    const buffers = new ReadBuffers();
    const read = await Promise.all([10, 20, 30, 40, 50].map((k) => buffers.read(fileOf(k * 1000, k).blob)));
    for (const bytes of read) buffers.giveBack(bytes);
    // The 10 kB buffer went: a 5 kB file takes the 20 kB one.
    expect((await buffers.read(fileOf(5000, 6).blob)).buffer).toBe(read[1].buffer);
  });
});

describe("a file read whole in chunks (openBlob without buffers)", () => {
  it("reads any range as the file's bytes: a view inside a chunk, a copy across chunks; a dropped chunk is not read", async () => {
    const size = 2 * WHOLE_CHUNK_BYTES + 12_345;
    const a = fileOf(size, 7);
    let told = 0;
    const source = await openBlob(a.blob, "a.pt", { onBytes: (read) => (told = read) });
    expect(told).toBe(size);
    expect(source.size).toBe(size);
    expect(source.chunks?.chunks.length).toBe(3);
    const C = WHOLE_CHUNK_BYTES;
    const ranges: [number, number][] = [
      [0, 10],
      [C - 4, 4],
      [C - 4, 8],
      [C - 3, C + 7],
      [2 * C + 12_000, 1000],
      [0, size],
      [size - 1, 5],
      [size, 3],
    ];
    for (const [offset, length] of ranges) {
      const read = source.read(offset, length);
      expect(same(read, a.bytes.subarray(offset, Math.min(size, offset + length))), `${offset} +${length}`).toBe(true);
      const inOne = Math.floor(offset / C) === Math.floor((Math.min(size, offset + length) - 1) / C);
      // A view of its chunk (no range here is a whole chunk), or a copy of its own.
      if (read.length > 0) expect(read.buffer.byteLength === read.length, `${offset} +${length}`).toBe(!inOne);
    }
    source.chunks?.drop(1);
    expect(same(source.read(5, 10), a.bytes.subarray(5, 15))).toBe(true);
    expect(() => source.read(C + 1, 2)).toThrow(/let go/);
  });
});
