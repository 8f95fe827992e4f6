import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checkDump, openDump } from "../io/slimeDump";
import { bytesSource } from "../io/tensorFiles/byteSource";
import { readTensorFile } from "../io/tensorFiles/readTensorFile";
import { isTensor } from "../io/tensorFiles/tensorTypes";
import { writePpoTrainDump } from "./ppoTrainDump";
import { MemorySink } from "./storedZipWriter";
import { type PickleValue, PyFloat, type TorchStorage, TorchTensor } from "./torchPickleWriter";
import { storageOf, type TorchLayout, torchSaveBytes, writeTorchSave } from "./torchZipWriter";

const dumps = new URL("../../cases/dumps/", import.meta.url);
const fixture = (path: string) => new Uint8Array(readFileSync(new URL(path, dumps)));

/** The value tree of scripts/dumps/make_writer_fixture.py, storage for storage. */
function fixtureTree(): PickleValue {
  const flat = storageOf(
    "float32",
    Float32Array.from({ length: 12 }, (_, i) => i / 4),
  );
  const padded = storageOf(
    "float32",
    Float32Array.from({ length: 10 }, (_, i) => i - 3),
  );
  const sums = storageOf("float32", Float32Array.from([2, 4]));
  const int64 = (xs: number[]) => new TorchTensor(storageOf("int64", BigInt64Array.from(xs.map(BigInt))), [xs.length]);
  const int32 = (xs: number[]) => new TorchTensor(storageOf("int32", Int32Array.from(xs)), [xs.length]);
  const bool = (xs: boolean[]) => new TorchTensor(storageOf("bool", Uint8Array.from(xs, Number)), [xs.length]);
  const names = Array.from({ length: 300 }, (_, i) => `n${i}`);
  return {
    format_version: 2,
    rollout_id: 7,
    rank: 0,
    samples: [
      {
        tokens: int64([0, 1, 2, 3, 4, 5].map((x) => x * 1000)),
        response_lengths: 3,
        rewards: new PyFloat(1),
        truncated: 0,
        loss_masks: int32([1, 0, 1]),
        rollout_mask_sums: new TorchTensor(sums, [], 0),
        source_names: "math",
        advantages: new TorchTensor(flat, [3], 0),
        returns: new TorchTensor(padded, [3], 0),
        flags: bool([true, false, true]),
      },
      {
        tokens: int64([0, 1, 2, 3, 4, 5, 6, 7].map((x) => x * -7)),
        response_lengths: 5,
        rewards: -0.5,
        truncated: 1,
        loss_masks: int32([1, 1, 1, 1, 0]),
        rollout_mask_sums: new TorchTensor(sums, [], 1),
        source_names: "math",
        advantages: new TorchTensor(flat, [5], 3),
        returns: new TorchTensor(padded, [5], 5),
        flags: bool([false, false, false, false, false]),
      },
    ],
    raw_reward: [new PyFloat(1), -0.5],
    matrix: new TorchTensor(padded, [2, 5]),
    column: new TorchTensor(padded, [2], 1, [5]),
    extra: [0, 1, 2, 3].map((i) => new TorchTensor(storageOf("float32", Float32Array.from([i, i])), [2])),
    ints: [0, 255, 256, 65535, 65536, -1, -(2 ** 31), 2 ** 31, 2n ** 63n, -(2n ** 70n)],
    floats: [0.1, -0, 1e300, Number.POSITIVE_INFINITY, new PyFloat(2)],
    flags: [null, true, false],
    names,
    names_again: [names[299], names[0]],
    long: Array.from({ length: 1500 }, (_, i) => i),
    one: [{ x: 0.25 }],
  };
}

function written(root: PickleValue, stem: string, layout: TorchLayout, forceZip64 = false): Promise<Uint8Array> {
  return torchSaveBytes(root, { stem, layout, forceZip64 });
}

async function ppoDump(stem: string, layout: TorchLayout): Promise<Uint8Array> {
  const sink = new MemorySink();
  const params = { samples: 12, responseMin: 3, responseMax: 300, toolShare: 0.5, seed: 4 };
  await writePpoTrainDump(sink, params, stem, layout);
  return sink.bytes();
}

interface ZipRecord {
  name: string;
  facts: string;
  dataOffset: number;
  size: number;
}

/**
 * A test's own reading of a torch zip (the project's reader is what is under test elsewhere):
 * the central directory, each local header's fields, where the data starts, its descriptor.
 */
function zipRecords(bytes: Uint8Array): { records: ZipRecord[]; zip64End: boolean } {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eocd = bytes.length - 22;
  expect(v.getUint32(eocd, true)).toBe(0x06054b50);
  const zip64End = v.getUint32(eocd - 20, true) === 0x07064b50;
  let count = v.getUint16(eocd + 10, true);
  let at = v.getUint32(eocd + 16, true);
  if (count === 0xffff) {
    const record = Number(v.getBigUint64(eocd - 20 + 8, true));
    count = Number(v.getBigUint64(record + 32, true));
    at = Number(v.getBigUint64(record + 48, true));
  }
  const records: ZipRecord[] = [];
  for (let k = 0; k < count; k++) {
    expect(v.getUint32(at, true)).toBe(0x02014b50);
    const nameLength = v.getUint16(at + 28, true);
    const extraLength = v.getUint16(at + 30, true);
    const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength));
    let size = v.getUint32(at + 24, true);
    let header = v.getUint32(at + 42, true);
    if (extraLength > 0) {
      const x = at + 46 + nameLength;
      expect(v.getUint16(x, true)).toBe(0x0001);
      let q = x + 4;
      if (size === 0xffffffff) {
        size = Number(v.getBigUint64(q + 8, true));
        q += 16;
      }
      if (header === 0xffffffff) header = Number(v.getBigUint64(q, true));
    }
    const crc = v.getUint32(at + 16, true);
    const localName = v.getUint16(header + 26, true);
    const localExtra = v.getUint16(header + 28, true);
    const extra = bytes.subarray(header + 30 + localName, header + 30 + localName + localExtra);
    const fb = extra.findIndex((_, i) => extra[i] === 0x46 && extra[i + 1] === 0x42);
    const padding = extra.subarray(fb + 4);
    const dataOffset = header + 30 + localName + localExtra;
    const descriptor = dataOffset + size;
    const facts = {
      localVersion: v.getUint16(header + 4, true),
      flags: v.getUint16(header + 6, true),
      method: v.getUint16(header + 8, true),
      localCrcAndSizes: [14, 18, 22].map((o) => v.getUint32(header + o, true)),
      padded: fb >= 0 && padding.length === v.getUint16(header + 30 + localName + fb + 2, true),
      fill: padding.every((b) => b === 0x5a),
      aligned: dataOffset % 64 === 0,
      descriptorCrc: v.getUint32(descriptor, true) === 0x08074b50 && v.getUint32(descriptor + 4, true) === crc,
      centralFlags: v.getUint16(at + 8, true),
    };
    records.push({ name, facts: JSON.stringify(facts), dataOffset, size });
    at += 46 + nameLength + extraLength + v.getUint16(at + 32, true);
  }
  return { records, zip64End };
}

/** The opcodes and GLOBALs of a protocol-2 pickle, walked by argument length (no unpickling). */
function pickleOps(p: Uint8Array): { ops: Set<number>; globals: Set<string> } {
  const v = new DataView(p.buffer, p.byteOffset, p.byteLength);
  const fixed: Record<number, number> = {
    128: 1,
    75: 1,
    77: 2,
    74: 4,
    71: 8,
    113: 1,
    114: 4,
    104: 1,
    106: 4,
  };
  const bare = [0x28, 0x2e, 0x7d, 0x5d, 0x29, 0x73, 0x75, 0x61, 0x65, 0x74, 0x85, 0x86, 0x87];
  const more = [0x4e, 0x88, 0x89, 0x52, 0x51];
  const ops = new Set<number>();
  const globals = new Set<string>();
  let i = 0;
  while (i < p.length) {
    const op = p[i++];
    ops.add(op);
    if (op === 0x2e) break;
    if (op in fixed) i += fixed[op];
    else if (op === 0x58) i += 4 + v.getUint32(i, true);
    else if (op === 0x8a) i += 1 + p[i];
    else if (op === 0x63) {
      const end = p.indexOf(0x0a, p.indexOf(0x0a, i) + 1);
      globals.add(new TextDecoder().decode(p.subarray(i, end)).replace("\n", "."));
      i = end + 1;
    } else if (!bare.includes(op) && !more.includes(op)) throw new Error(`opcode 0x${op.toString(16)} at ${i - 1}`);
  }
  return { ops, globals };
}

function pickleOf(bytes: Uint8Array): Uint8Array {
  const pkl = zipRecords(bytes).records.find((r) => r.name.endsWith("/data.pkl"));
  if (!pkl) throw new Error("no data.pkl");
  return bytes.subarray(pkl.dataOffset, pkl.dataOffset + pkl.size);
}

describe("torchZipWriter", () => {
  it("rebuilds byte for byte a file torch 1.13 saved (scripts/dumps/make_writer_fixture.py)", async () => {
    const expected = fixture("writer/writer_torch113.pt");
    const mine = await written(fixtureTree(), "writer_torch113", "torch-1.13");
    expect(mine.length).toBe(expected.length);
    expect(Buffer.from(mine).equals(Buffer.from(expected))).toBe(true);
  });

  it("writes a train dump in the layout of slime's real dumps", async () => {
    const real = fixture("slime-shared/train_ppo_g099_l095_kl002.pt");
    const mine = await ppoDump("train_ppo_g099_l095_kl002", "torch-1.13");
    const a = zipRecords(real);
    const b = zipRecords(mine);
    const pattern = /^train_ppo_g099_l095_kl002\/(data\.pkl|data\/\d+|version)$/;
    for (const zip of [a, b]) {
      const names = zip.records.map((r) => r.name);
      expect(names.every((n) => pattern.test(n))).toBe(true);
      expect(names[0]).toMatch(/data\.pkl$/);
      expect(names.at(-1)).toMatch(/version$/);
      const keys = names.slice(1, -1);
      expect(keys).toEqual([...keys].sort());
      expect(zip.zip64End).toBe(true);
    }
    expect(new Set(b.records.map((r) => r.facts))).toEqual(new Set(a.records.map((r) => r.facts)));
    const realOps = [real, fixture("slime-shared/train_rpp_g099_kl005.pt")].map((f) => pickleOps(pickleOf(f)));
    const accepted = new Set(realOps.flatMap((o) => [...o.ops]));
    const acceptedGlobals = new Set(realOps.flatMap((o) => [...o.globals]));
    const { ops, globals } = pickleOps(pickleOf(mine));
    expect([...ops].filter((op) => !accepted.has(op))).toEqual([]);
    expect([...globals].filter((g) => !acceptedGlobals.has(g))).toEqual([]);
  });

  it("writes torch 2's records: byteorder, format version, alignment, storages in numeric order, serialization id", async () => {
    const bytes = await written(fixtureTree(), "5", "torch-2");
    const names = zipRecords(bytes).records.map((r) => r.name);
    const storages = Array.from({ length: 13 }, (_, i) => `5/data/${i}`);
    expect(names).toEqual([
      "5/data.pkl",
      "5/.format_version",
      "5/.storage_alignment",
      "5/byteorder",
      ...storages,
      "5/version",
      "5/.data/serialization_id",
    ]);
  });

  it("writes zip64 sizes, offsets and end record where asked, and the reader follows them", async () => {
    const bytes = await written(fixtureTree(), "z", "torch-2", true);
    const { records } = zipRecords(bytes);
    expect(records.every((r) => JSON.parse(r.facts).aligned)).toBe(true);
    const opened = openDump(bytesSource(bytes, "z.pt"));
    expect(opened.ok).toBe(true);
    const plain = openDump(bytesSource(await written(fixtureTree(), "z", "torch-2"), "z.pt"));
    expect(opened.ok && plain.ok && opened.value.dump.samples).toEqual(plain.ok && plain.value.dump.samples);
  });

  for (const layout of ["torch-1.13", "torch-2"] as const) {
    it(`writes a ppo train dump (${layout}) that openDump reads and checkDump passes, returns bit for bit`, async () => {
      const bytes = await ppoDump("3", layout);
      const opened = openDump(bytesSource(bytes, "train_data/3.pt"));
      if (!opened.ok) throw new Error(opened.error.message);
      expect(opened.value.dump.samples.length).toBe(12);
      const given = { advantageEstimator: "ppo", gamma: 1, lambd: 1, klCoef: 0.02, normalizeAdvantages: true } as const;
      for (const settings of [given, {}]) {
        const check = checkDump(opened.value.dump, settings);
        expect(check.stages.map((s) => `${s.stage} ${s.status}`)).toEqual([
          "rewards pass",
          "kl pass",
          "returns pass",
          "advantages pass",
        ]);
        expect(check.passed).toBe(true);
        expect(check.bits && check.bits.identical === check.bits.compared).toBe(true);
      }
    });
  }

  it("writes views of one storage, a transposed stride among them, that read back as written", async () => {
    const floats = storageOf("float32", new Float32Array([1, 2, 3, 4, 5, 6]));
    const bytes = await torchSaveBytes(
      { x: new TorchTensor(floats, [2, 3]), t: new TorchTensor(floats, [3, 2], 0, [1, 3]) },
      { stem: "archive" },
    );
    const result = readTensorFile(bytes, "kit.pt");
    if (!result.ok) throw new Error(result.error.message);
    const root = result.value.root as Map<string, unknown>;
    const x = root.get("x");
    const t = root.get("t");
    expect(isTensor(x) && Array.from(x.data)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(isTensor(t) && Array.from(t.data)).toEqual([1, 4, 2, 5, 3, 6]);
  });

  it("asks for a storage's bytes only when its record is reached, after the pickle", async () => {
    const events: string[] = [];
    const storage = (name: string): TorchStorage => ({
      dtype: "float32",
      numel: 2,
      chunks: () => {
        events.push(`chunks ${name}`);
        return [new Float32Array(2)];
      },
    });
    const sink = {
      write: (chunk: Uint8Array) => {
        if (chunk[0] === 0x80 && chunk[1] === 2) events.push("pickle");
      },
    };
    await writeTorchSave(
      sink,
      { t: [new TorchTensor(storage("a"), [2]), new TorchTensor(storage("b"), [2])] },
      {
        stem: "s",
      },
    );
    expect(events).toEqual(["pickle", "chunks a", "chunks b"]);
  });

  it("refuses a storage whose chunks do not hold its bytes, naming the record", async () => {
    const short: TorchStorage = { dtype: "int64", numel: 3, chunks: () => [new BigInt64Array(2)] };
    await expect(writeTorchSave(new MemorySink(), { t: new TorchTensor(short, [3]) }, { stem: "s" })).rejects.toThrow(
      "zip: record s/data/0 has 16 bytes, not 24",
    );
    const view = new TorchTensor(short, [2], 2);
    await expect(writeTorchSave(new MemorySink(), { t: view }, { stem: "s" })).rejects.toThrow("element 3");
  });
});
