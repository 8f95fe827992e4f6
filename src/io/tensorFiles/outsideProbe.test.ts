import { deflateSync } from "fflate";
import { describe, expect, it } from "vitest";
import { TorchTensor, writeTorchPickle } from "../../testing/torchPickleWriter";
import { storageOf } from "../../testing/torchZipWriter";
import { bytesSource } from "./byteSource";
import { TENSOR_FILE_LIMITS } from "./limits";
import { readTensorFile, readTensorSource } from "./readTensorFile";
import { isTensor, type PyDict } from "./tensorTypes";

/**
 * Hostile files an outside probe built by hand (issue 28, 2026-12-07 session 7; docs/dumps.md,
 * "An outside probe's hostile files"): the ones that were read at far more than their own cost.
 */

interface RawRecord {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  /** The bytes in the file (compressed where method is 8). */
  data: Uint8Array;
  /** The size the directory states. */
  size: number;
}

/** A zip written by hand, so that its directory may state what its records do not hold. */
function rawZip(records: RawRecord[]): Uint8Array {
  const enc = new TextEncoder();
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const record of records) {
    const name = enc.encode(record.name);
    const local = new Uint8Array(30 + name.length);
    const l = new DataView(local.buffer);
    l.setUint32(0, 0x04034b50, true);
    l.setUint16(4, 20, true);
    l.setUint16(8, record.method, true);
    l.setUint32(18, record.data.length, true);
    l.setUint32(22, record.size, true);
    l.setUint16(26, name.length, true);
    local.set(name, 30);
    const entry = new Uint8Array(46 + name.length);
    const c = new DataView(entry.buffer);
    c.setUint32(0, 0x02014b50, true);
    c.setUint16(4, 20, true);
    c.setUint16(6, 20, true);
    c.setUint16(10, record.method, true);
    c.setUint32(20, record.data.length, true);
    c.setUint32(24, record.size, true);
    c.setUint16(28, name.length, true);
    c.setUint32(42, offset, true);
    entry.set(name, 46);
    parts.push(local, record.data);
    central.push(entry);
    offset += local.length + record.data.length;
  }
  const directorySize = central.reduce((n, e) => n + e.length, 0);
  const end = new Uint8Array(22);
  const e = new DataView(end.buffer);
  e.setUint32(0, 0x06054b50, true);
  e.setUint16(8, records.length, true);
  e.setUint16(10, records.length, true);
  e.setUint32(12, directorySize, true);
  e.setUint32(16, offset, true);
  const all = [...parts, ...central, end];
  const out = new Uint8Array(all.reduce((n, p) => n + p.length, 0));
  let p = 0;
  for (const part of all) {
    out.set(part, p);
    p += part.length;
  }
  return out;
}

/** A .npy of two float32 zeros. */
function twoFloatsNpy(): Uint8Array {
  const npyHeader = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
  const header = new TextEncoder().encode(`${npyHeader.padEnd(117, " ")}\n`);
  const npy = new Uint8Array(10 + header.length + 8);
  npy.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, header.length, 0]);
  npy.set(header, 10);
  return npy;
}

/** Bytes that are never inflated: the directory alone refuses the file. */
const filler = (n: number) => new Uint8Array(n).fill(0x5a);

describe("deflated records: what the directory states is charged before anything is inflated", () => {
  const limit = TENSOR_FILE_LIMITS.maxInflatedBytes;

  it(".npz: one record that honestly inflates 1032:1 past the limit (a 1 GiB array of zeros in 1 MB took 36 s and 2.2 GB)", () => {
    // 300 KB that claim 300 MB: within deflate's 1032:1, beyond what any deflated record may cost.
    const compressed = 300 * 1024;
    const size = 300 * 2 ** 20;
    expect(size).toBeLessThan(compressed * 1032);
    const bytes = rawZip([{ name: "rewards.npy", method: 8, data: filler(compressed), size }]);
    const r = readTensorFile(bytes, "bomb.npz");
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.message).toBe(
        `bomb.npz: record rewards.npy: inflates to ${size} bytes, which brings the archive's deflated records to ${size}, above the limit of ${limit} (a deflate bomb? re-save without compression)`,
      );
    }
  });

  it("two records under the limit each, over it together: the second is named", () => {
    const size = 150 * 2 ** 20;
    const bytes = rawZip([
      { name: "a.npy", method: 8, data: filler(200 * 1024), size },
      { name: "b.npy", method: 8, data: filler(200 * 1024), size },
    ]);
    const r = readTensorFile(bytes, "two.npz");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.where).toBe("record b.npy");
  });

  it("a stored record is the file's own bytes and is not charged", () => {
    const npy = twoFloatsNpy();
    const r = readTensorFile(rawZip([{ name: "rewards.npy", method: 0, data: npy, size: npy.length }]), "ok.npz");
    if (!r.ok) throw r.error;
    expect(isTensor((r.value.root as PyDict).get("rewards") ?? null)).toBe(true);
  });
});

describe("bytes after a deflate stream's final block", () => {
  it("are refused with their record and place (256 garbage bytes after the final block were read without a word)", () => {
    const npy = twoFloatsNpy();
    const deflated = deflateSync(npy);
    const record = (data: Uint8Array) => rawZip([{ name: "rewards.npy", method: 8, data, size: npy.length }]);
    const clean = readTensorFile(record(deflated), "ok.npz");
    expect(clean.ok).toBe(true);
    const padded = new Uint8Array(deflated.length + 256).fill(0xa5);
    padded.set(deflated);
    const r = readTensorFile(record(padded), "trailing.npz");
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.message).toBe(
        `trailing.npz: record rewards.npy: holds 256 bytes after the deflate stream's end (from byte ${deflated.length} of its ${padded.length} compressed bytes)`,
      );
    }
  });
});

describe("a deflated torch storage is inflated once, however many views read it", () => {
  it("four views of one deflated storage read its record once (each view inflated it again: 57 s for 1 GiB)", () => {
    const storage = storageOf("int64", new BigInt64Array([1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n]));
    const views = ["a", "b", "c", "d"].map((k, i) => [k, new TorchTensor(storage, [2], 2 * i)] as const);
    const pickle = writeTorchPickle(Object.fromEntries(views));
    const raw = new Uint8Array(storage.numel * 8);
    let at = 0;
    for (const chunk of storage.chunks()) {
      raw.set(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength), at);
      at += chunk.byteLength;
    }
    const deflated = deflateSync(raw);
    const bytes = rawZip([
      { name: "archive/data.pkl", method: 0, data: pickle.bytes, size: pickle.bytes.length },
      { name: "archive/data/0", method: 8, data: deflated, size: raw.length },
    ]);
    const source = bytesSource(bytes, "views.pt");
    const dataStart = 30 + "archive/data.pkl".length + pickle.bytes.length + 30 + "archive/data/0".length;
    let storageReads = 0;
    const counting = {
      ...source,
      read(offset: number, length: number) {
        if (offset === dataStart) storageReads++;
        return source.read(offset, length);
      },
    };
    const r = readTensorSource(counting);
    if (!r.ok) throw r.error;
    const root = r.value.root as PyDict;
    const values = ["a", "b", "c", "d"].map((k) => {
      const t = root.get(k);
      if (!isTensor(t)) throw new Error(`${k} is not a tensor`);
      return Array.from(t.data);
    });
    expect(values).toEqual([
      [1, 2],
      [3, 4],
      [5, 6],
      [7, 8],
    ]);
    expect(storageReads).toBe(1);
  });
});

describe("a safetensors header nested past the pickle's own nesting limit", () => {
  const header = (json: string) => {
    const text = new TextEncoder().encode(json);
    const out = new Uint8Array(8 + text.length);
    new DataView(out.buffer).setUint32(0, text.length, true);
    out.set(text, 8);
    return out;
  };

  it("is refused by its byte before JSON.parse (4 M brackets in 8 MB took 4 s of CPU and 450 MB)", () => {
    const deep = `{"a":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    const r = readTensorFile(header(deep), "deep.safetensors");
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.message).toBe(
        `deep.safetensors: byte ${8 + 5 + TENSOR_FILE_LIMITS.maxNesting - 1}: the header nests deeper than ${TENSOR_FILE_LIMITS.maxNesting} (a safetensors header nests 3 deep)`,
      );
    }
  });

  it("brackets inside a string, escaped quotes included, are not nesting", () => {
    const name = `x\\"${"[".repeat(1000)}`;
    const r = readTensorFile(
      header(`{"${name}": {"dtype": "F32", "shape": [0], "data_offsets": [0, 0]}}`),
      "names.safetensors",
    );
    if (!r.ok) throw r.error;
    expect((r.value.root as PyDict).size).toBe(1);
  });

  it("an unterminated string ends the scan and is refused as JSON", () => {
    const r = readTensorFile(header('{"a\\'), "open.safetensors");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toContain("byte 8: the header is not valid UTF-8 JSON");
  });
});

describe("legacy torch file: a storage key listed twice", () => {
  const enc = new TextEncoder();
  const str = (s: string) => {
    const b = enc.encode(s);
    return [0x58, b.length, 0, 0, 0, ...b];
  };
  const global = (module: string, name: string) => [0x63, ...enc.encode(`${module}\n${name}\n`)];
  const magic = [0x80, 2, 0x8a, 10, 0x6c, 0xfc, 0x9c, 0x46, 0xf9, 0x20, 0x6a, 0xa8, 0x50, 0x19, 0x2e];
  const protocol = [0x80, 2, 0x4d, 1001 & 255, 1001 >> 8, 0x2e];
  const sysInfo = [0x80, 2, 0x7d, ...str("little_endian"), 0x88, 0x73, 0x2e];
  // {"x": _rebuild_tensor_v2(('storage', LongStorage, '0', 'cpu', 1, None), 0, (1,), (1,), False, OrderedDict())}
  const object = [
    0x80,
    2,
    0x7d,
    ...str("x"),
    ...global("torch._utils", "_rebuild_tensor_v2"),
    0x28,
    0x28,
    ...str("storage"),
    ...global("torch", "LongStorage"),
    ...str("0"),
    ...str("cpu"),
    0x4b,
    1,
    0x4e,
    0x74,
    0x51,
    0x4b,
    0,
    0x4b,
    1,
    0x85,
    0x4b,
    1,
    0x85,
    0x89,
    ...global("collections", "OrderedDict"),
    0x29,
    0x52,
    0x74,
    0x52,
    0x73,
    0x2e,
  ];
  const storage = (value: number) => [1, 0, 0, 0, 0, 0, 0, 0, value, 0, 0, 0, 0, 0, 0, 0];
  const keys = (...names: string[]) => [0x80, 2, 0x5d, 0x28, ...names.flatMap(str), 0x65, 0x2e];

  it("once: read", () => {
    const bytes = Uint8Array.from([...magic, ...protocol, ...sysInfo, ...object, ...keys("0"), ...storage(7)]);
    const r = readTensorFile(bytes, "legacy.pt");
    if (!r.ok) throw r.error;
    const x = (r.value.root as PyDict).get("x");
    if (!isTensor(x)) throw new Error("x is not a tensor");
    expect(Array.from(x.data)).toEqual([7]);
  });

  it("twice, each with its bytes: refused at the second copy (the second copy was read, the first ignored)", () => {
    const head = [...magic, ...protocol, ...sysInfo, ...object, ...keys("0", "0"), ...storage(7)];
    const r = readTensorFile(Uint8Array.from([...head, ...storage(8)]), "legacy.pt");
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.where).toBe(`byte ${head.length}`);
      expect(r.error.message).toContain("storage '0' is listed twice in the list of storage keys");
    }
  });
});
