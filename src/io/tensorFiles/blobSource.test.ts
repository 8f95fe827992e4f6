import { describe, expect, it } from "vitest";
import { writePpoTrainDump } from "../../testing/ppoTrainDump";
import { MemorySink } from "../../testing/storedZipWriter";
import { checkDump } from "../slimeDump/checkDump";
import { openDump } from "../slimeDump/openDump";
import { blobSource, type ReadSlice } from "./blobSource";
import { bytesSource } from "./byteSource";

const MiB = 2 ** 20;

/** A blob's slices read from an array, as FileReaderSync reads them (a worker's API, absent in Node). */
function slicesOf(bytes: Uint8Array): ReadSlice {
  return (start, end) => bytes.slice(start, end).buffer;
}

/** The first index where the two differ, -1 where they are the same (toEqual walks 33 MiB for minutes). */
function firstDifference(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  return Buffer.compare(a, b) === 0 ? -1 : a.findIndex((x, i) => x !== b[i]);
}

/** The Blob the slices are of: only its size is read where the slices are given. */
function sized(bytes: Uint8Array): Blob {
  return { size: bytes.length } as Blob;
}

function patterned(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = (i * 7919) >>> 8;
  return bytes;
}

describe("blobSource: a File read by slices", () => {
  it("gives the bytes asked for, across chunks and where the file ends, each read a fresh array", () => {
    const bytes = patterned(40 * MiB + 123);
    const source = blobSource(sized(bytes), "big.pt", slicesOf(bytes));
    expect(source.size).toBe(bytes.length);
    for (const [offset, length] of [
      [0, 10],
      [16 * MiB - 5, 10],
      [16 * MiB - 5, 17 * MiB],
      [3, 33 * MiB],
      [40 * MiB, 1000],
      [bytes.length, 5],
    ]) {
      expect(firstDifference(source.read(offset, length), bytes.slice(offset, offset + length))).toBe(-1);
    }
    const a = source.read(100, 8);
    a.fill(0);
    expect(source.read(100, 8)).toEqual(bytes.slice(100, 108));
  });

  it("reads each 16 MiB chunk once while the reads stay near each other", () => {
    const bytes = patterned(48 * MiB);
    const source = blobSource(sized(bytes), "big.pt", slicesOf(bytes));
    for (let offset = 0; offset < bytes.length; offset += 64 * 1024) source.read(offset, 1000);
    expect(source.reads).toBe(3);
  });

  it("a streamed dump read through it checks as the same dump read whole", async () => {
    const sink = new MemorySink();
    const params = { samples: 5, promptLength: 16, responseMin: 1030, responseMax: 2100, entropy: true, seed: 3 };
    await writePpoTrainDump(sink, params, "ppo");
    const bytes = sink.bytes();
    const whole = openDump(bytesSource(bytes, "dump.pt"));
    const sliced = openDump(blobSource(sized(bytes), "dump.pt", slicesOf(bytes)), { streamed: true });
    if (!whole.ok || !sliced.ok) throw new Error("not opened");
    expect(Object.getOwnPropertyDescriptor(sliced.value.dump.samples[0], "advantages")?.get).toBeDefined();
    const text = (d: typeof whole.value.dump) =>
      JSON.stringify(checkDump(d, {}), (_, v) => (ArrayBuffer.isView(v) ? Array.from(v as Float64Array) : v));
    expect(text(sliced.value.dump)).toBe(text(whole.value.dump));
  });

  it("a read that fails (the file changed since it was chosen) refuses the file by name", () => {
    const source = blobSource(new Blob([new Uint8Array(100)]), "gone.pt", () => {
      throw new DOMException("the file changed", "NotReadableError");
    });
    const opened = openDump(source, { streamed: true });
    expect(opened.ok).toBe(false);
    if (!opened.ok)
      expect(opened.error.message).toMatch(/gone\.pt.*could not be read.*NotReadableError|gone\.pt.*changed/);
  });
});
