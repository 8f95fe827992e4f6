import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { refusalMessage } from "../../testing/resultKit";
import { fixtureBytes } from "../slimeDump/dumpFixtures";
import { openDump } from "../slimeDump/openDump";
import { type ByteSource, bytesSource } from "./byteSource";
import { readTensorSource } from "./readTensorFile";
import { isDict, isTensor } from "./tensorTypes";
import { readZip } from "./zipArchive";

/** A source that counts the bytes asked of it: what streaming saves is what is never read. */
function countingSource(bytes: Uint8Array, name: string): ByteSource & { bytesRead: () => number } {
  const inner = bytesSource(bytes, name);
  let read = 0;
  return {
    name,
    size: inner.size,
    read(offset, length) {
      const out = inner.read(offset, length);
      read += out.length;
      return out;
    },
    bytesRead: () => read,
  };
}

const refusal = (bytes: Uint8Array, name = "z.pt") =>
  refusalMessage(readTensorSource(bytesSource(bytes, name)), "archive");

describe("a zip file read by random access", () => {
  it("opening a dump reads its directory and pickle, and a tensor's bytes only when its field is read", () => {
    const bytes = fixtureBytes("slime-shared/train_ppo_g099_l095_kl002.pt");
    const source = countingSource(bytes, "train.pt");
    const file = readTensorSource(source);
    if (!file.ok) throw file.error;
    const opened = source.bytesRead();
    expect(opened).toBeLessThan(bytes.length / 4);
    const samples = isDict(file.value.root) ? file.value.root.get("samples") : undefined;
    const first = Array.isArray(samples) && isDict(samples[0]) ? samples[0].get("advantages") : undefined;
    if (!isTensor(first)) throw new Error("no advantages");
    const values = first.data;
    // Its record's local header (30 bytes) and its own bytes, once.
    expect(source.bytesRead() - opened).toBe(30 + values.length * 4);
    const again = source.bytesRead();
    expect(first.data).toBe(values);
    expect(source.bytesRead()).toBe(again);
  });

  it("opening a train dump reads each sample's prompt tokens, never its response tokens", () => {
    const bytes = fixtureBytes("slime-shared/train_ppo_g099_l095_kl002.pt");
    const source = countingSource(bytes, "train.pt");
    const opened = openDump(source);
    if (!opened.ok) throw opened.error;
    const samples = opened.value.dump.samples;
    expect(opened.value.dump.promptGroups).toBeDefined();
    // tokens are int64: 8 bytes each; the responses' tokens (their bytes never read) total this.
    const responseTokenBytes = samples.reduce((sum, s) => sum + 8 * s.responseLength, 0);
    expect(responseTokenBytes).toBeGreaterThan(0);
    expect(source.bytesRead()).toBeLessThanOrEqual(bytes.length - responseTokenBytes);
  });

  it("the understood dump is the same read whole or by random access", () => {
    const bytes = fixtureBytes("slime-shared/train_rpp_g099_kl005.pt");
    const streamed = openDump(countingSource(bytes, "a.pt"));
    const whole = openDump(bytesSource(bytes.slice(), "a.pt"));
    if (!streamed.ok || !whole.ok) throw new Error("refused");
    expect(streamed.value.dump.samples).toEqual(whole.value.dump.samples);
  });

  it("refuses overlapping records, bytes no record accounts for, and bytes after the directory", () => {
    const files = { "a/data.pkl": new Uint8Array([0x80, 2, 0x4e, 0x2e]), "a/data/0": new Uint8Array(64) };
    const good = zipSync(files, { level: 0 });
    const view = new DataView(good.buffer);
    const eocd = good.length - 22;
    const directory = view.getUint32(eocd + 16, true);
    // The second central entry's local header offset moved back into the first record.
    const second = directory + 46 + "a/data.pkl".length;
    const overlapping = good.slice();
    new DataView(overlapping.buffer).setUint32(second + 42, 10, true);
    expect(refusal(overlapping)).toMatch(
      /record a\/data\/0: starts at byte 10, inside record a\/data\.pkl .*overlapping records/,
    );

    // 70,000 bytes spliced in before the central directory (its offset updated): no record holds them.
    const gap = 70_000;
    const padded = new Uint8Array(good.length + gap);
    padded.set(good.subarray(0, directory));
    padded.set(good.subarray(directory), directory + gap);
    new DataView(padded.buffer).setUint32(padded.length - 22 + 16, directory + gap, true);
    expect(refusal(padded)).toMatch(/z\.pt: byte \d+: 70\d{3} bytes before the central directory belong to no record/);
  });

  it("reads the zip64 end record when the directory's fields are saturated", () => {
    const files = { "a/data.pkl": new Uint8Array([0x80, 2, 0x4e, 0x2e]) };
    const plain = zipSync(files, { level: 0 });
    const view = new DataView(plain.buffer);
    const eocd = plain.length - 22;
    const count = view.getUint16(eocd + 10, true);
    const size = view.getUint32(eocd + 12, true);
    const offset = view.getUint32(eocd + 16, true);
    // [records][directory][zip64 end record][zip64 locator][end record with 0xffff / 0xffffffff]
    const zip64 = new Uint8Array(56);
    const z = new DataView(zip64.buffer);
    z.setUint32(0, 0x06064b50, true);
    z.setBigUint64(4, 44n, true);
    z.setBigUint64(24, BigInt(count), true);
    z.setBigUint64(32, BigInt(count), true);
    z.setBigUint64(40, BigInt(size), true);
    z.setBigUint64(48, BigInt(offset), true);
    const locator = new Uint8Array(20);
    const l = new DataView(locator.buffer);
    l.setUint32(0, 0x07064b50, true);
    l.setBigUint64(8, BigInt(eocd), true);
    l.setUint32(16, 1, true);
    const end = plain.slice(eocd);
    const e = new DataView(end.buffer);
    e.setUint16(8, 0xffff, true);
    e.setUint16(10, 0xffff, true);
    e.setUint32(12, 0xffffffff, true);
    e.setUint32(16, 0xffffffff, true);
    const bytes = new Uint8Array([...plain.subarray(0, eocd), ...zip64, ...locator, ...end]);
    const archive = readZip(bytesSource(bytes, "z64.pt"));
    expect([...archive.entries.keys()]).toEqual(["a/data.pkl"]);
    expect(archive.read(archive.entries.get("a/data.pkl") as never)).toEqual(files["a/data.pkl"]);
  });
});
