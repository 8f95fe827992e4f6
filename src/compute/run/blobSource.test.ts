import { describe, expect, it } from "vitest";
import { openBlob, ReadBuffers } from "./blobSource";

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
