import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { fixtureBytes, MANIFEST } from "../slimeDump/dumpFixtures";
import { bytesSource } from "./byteSource";
import { readTensorFile } from "./readTensorFile";
import { isDict, isTensor, type PyValue, type Tensor } from "./tensorTypes";
import { readZip } from "./zipArchive";

function read(path: string) {
  const name = path.split("/").pop() as string;
  return readTensorFile(fixtureBytes(path), name);
}

function asNested(t: Tensor): unknown {
  if (t.shape.length === 0) return t.data[0];
  const build = (offset: number, dim: number): unknown => {
    const stride = t.shape.slice(dim + 1).reduce((a, b) => a * b, 1);
    return Array.from({ length: t.shape[dim] }, (_, i) =>
      dim === t.shape.length - 1 ? t.data[offset + i] : build(offset + i * stride, dim + 1),
    );
  };
  return build(0, 0);
}

describe("readTensorFile on slime's real dumps", () => {
  it("reads the train dump: 8 samples, views of shared storages resolved, 0-d tensors", () => {
    const r = read("slime-shared/train_rpp_g099_kl005.pt");
    if (!r.ok) throw r.error;
    expect(r.value.format).toBe("torch-zip");
    const root = r.value.root as Map<string, PyValue>;
    expect(root.get("format_version")).toBe(2);
    const samples = root.get("samples") as Map<string, PyValue>[];
    expect(samples).toHaveLength(8);
    const lengths = samples.map((s) => s.get("response_lengths"));
    expect(lengths).toEqual([312, 1, 1269, 1480, 2980, 745, 629, 454]);
    samples.forEach((s, i) => {
      const R = lengths[i] as number;
      for (const key of ["advantages", "returns", "kl", "loss_masks", "log_probs"]) {
        const t = s.get(key) as Tensor;
        expect(t.shape).toEqual([R]);
        expect(t.data).toHaveLength(R);
      }
      // rollout_mask_sums: a 0-d view of one [N] storage at storage_offset i.
      const sums = s.get("rollout_mask_sums") as Tensor;
      expect(sums.shape).toEqual([]);
      expect(sums.data[0]).toBe(Array.from((s.get("loss_masks") as Tensor).data).reduce((a, b) => a + b, 0));
      // unwhitened REINFORCE++: advantages and returns are the same view of the padded storage.
      expect((s.get("advantages") as Tensor).data).toEqual((s.get("returns") as Tensor).data);
      expect((s.get("tokens") as Tensor).dtype).toBe("int64");
    });
  });

  it("reads the rollout dump (no GLOBAL at all), the plain dict and the npz", () => {
    const rollout = read("slime-shared/rollout_eval_5.pt");
    if (!rollout.ok) throw rollout.error;
    const samples = (rollout.value.root as Map<string, PyValue>).get("samples") as Map<string, PyValue>[];
    expect(samples).toHaveLength(4);
    expect(samples[0].get("status")).toBe("completed");
    const plain = read("slime-shared/plain_dict.pt");
    if (!plain.ok) throw plain.error;
    expect(((plain.value.root as Map<string, PyValue>).get("rewards") as Tensor).shape).toEqual([4, 500]);
    const npz = read("slime-shared/batch.npz");
    if (!npz.ok) throw npz.error;
    expect(npz.value.format).toBe("npz");
  });

  it("refuses the hostile pickle by the name of its global, at its byte, before anything else", () => {
    const r = read("slime-shared/evil_reduce.pt");
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.message).toContain('GLOBAL "posix.system" is not allowed');
    expect(r.error.where).toBe("record evil_reduce/data.pkl, byte 257");
    expect(r.error.message.startsWith("evil_reduce.pt: ")).toBe(true);
  });
});

describe("readTensorFile on the generated fixtures (manifest)", () => {
  for (const entry of MANIFEST.filter((e) => e.expect === "tree")) {
    it(`${entry.file}: every value as torch/numpy wrote it`, () => {
      const r = read(`generated/${entry.file}`);
      if (!r.ok) throw r.error;
      const root = r.value.root;
      if (isTensor(root)) {
        expect(asNested(root)).toEqual(entry.values);
        expect(root.storedDtype).toBe("bfloat16");
        expect(r.notes.join()).toContain("widened to float32");
        return;
      }
      expect(isDict(root)).toBe(true);
      for (const [name, expected] of Object.entries(entry.values as Record<string, unknown>)) {
        const t = (root as Map<string, PyValue>).get(name) as Tensor;
        const got = asNested(t);
        // float32 values from Python are float64 text of float32 numbers: equal once rounded.
        const round = (v: unknown): unknown =>
          Array.isArray(v) ? v.map(round) : typeof v === "number" ? Math.fround(v) : v;
        expect(t.dtype === "float64" ? got : round(got)).toEqual(t.dtype === "float64" ? expected : round(expected));
      }
    });
  }

  for (const entry of MANIFEST.filter((e) => e.expect === "refuse")) {
    it(`${entry.file}: refused (${entry.reason}), naming the file and the place`, () => {
      const r = read(`generated/${entry.file}`);
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.error.message).toContain(entry.reason as string);
      expect(r.error.message.startsWith(`${entry.file}: `)).toBe(true);
      expect(r.error.where).toMatch(/^(byte \d+|record .+|header field .+)$/);
    });
  }

  it("reads the legacy (non-zip) format to the same tree as the zip it was saved from", () => {
    const zip = read("generated/grpo_kl0.pt");
    const legacy = read("generated/legacy_grpo_kl0.pt");
    if (!zip.ok || !legacy.ok) throw new Error("both must read");
    expect(legacy.value.format).toBe("torch-legacy");
    const strip = (v: PyValue): unknown =>
      isTensor(v)
        ? { shape: v.shape, dtype: v.dtype, data: Array.from(v.data) }
        : v instanceof Map
          ? [...v].map(([k, x]) => [k, strip(x)])
          : Array.isArray(v)
            ? v.map(strip)
            : v;
    expect(strip(legacy.value.root)).toEqual(strip(zip.value.root));
  });
});

describe("the zip layer", () => {
  it("does not depend on record order or the local headers' sizes: torch 2's numeric order and extra records read the same", () => {
    const bytes = fixtureBytes("generated/grpo_kl0.pt");
    const original = readZip(bytesSource(bytes, "grpo_kl0.pt"));
    const entries = [...original.entries.values()].reverse();
    const files: Record<string, Uint8Array> = {};
    // torch ≥ 2 adds these and writes storages in numeric order; here, reversed.
    files["archive/.format_version"] = new TextEncoder().encode("1");
    files["archive/byteorder"] = new TextEncoder().encode("little");
    for (const e of entries) files[e.name.replace(/^grpo_kl0\//, "archive/")] = original.read(e).slice();
    const rezipped = zipSync(files, { level: 6 });
    const a = readTensorFile(bytes, "a.pt");
    const b = readTensorFile(rezipped, "b.pt");
    if (!a.ok || !b.ok) throw new Error(b.ok ? "a" : b.error.message);
    const samples = (v: PyValue) =>
      ((v as Map<string, PyValue>).get("samples") as Map<string, PyValue>[]).map((s) =>
        Array.from((s.get("advantages") as Tensor).data),
      );
    expect(samples(b.value.root)).toEqual(samples(a.value.root));
  });

  it("refuses big-endian files by their byteorder record", () => {
    const files = {
      "x/data.pkl": new Uint8Array([0x80, 2, 0x4e, 0x2e]),
      "x/byteorder": new TextEncoder().encode("big"),
    };
    const r = readTensorFile(zipSync(files), "big.pt");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toContain("record x/byteorder");
  });

  it("refuses a deflated entry that claims more than deflate can expand to, before allocating it", () => {
    const bytes = zipSync({ "a.npy": new Uint8Array(5000) }, { level: 9 }).slice();
    const view = new DataView(bytes.buffer);
    const directory = bytes.length - 22 - 46 - 5; // one entry: its central header, name "a.npy", then the end record
    expect(view.getUint32(directory, true)).toBe(0x02014b50);
    view.setUint32(directory + 24, 200 * 2 ** 20, true);
    const r = readTensorFile(bytes, "bomb.npz");
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.error.message).toMatch(
        /record a\.npy: claims 209715200 bytes from \d+ compressed, beyond deflate's 1032:1 maximum/,
      );
  });

  it("refuses an archive with two data.pkl records rather than guessing", () => {
    const pkl = new Uint8Array([0x80, 2, 0x4e, 0x2e]);
    const r = readTensorFile(zipSync({ "a/data.pkl": pkl, "b/data.pkl": pkl }), "two.pt");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toContain("2 data.pkl records");
  });
});
