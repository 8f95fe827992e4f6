import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { type PickleValue, TorchTensor, writeTorchPickle } from "../../testing/torchPickleWriter";
import { storageOf, torchSaveBytes } from "../../testing/torchZipWriter";
import { fixtureBytes } from "../slimeDump/dumpFixtures";
import { runPickle } from "./pickleMachine";
import { readTensorFile } from "./readTensorFile";
import { TensorFileError } from "./tensorFileError";
import { torchPickleHooks } from "./torchPickle";

/**
 * Small hostile files, built here, that cost far more than their size before the readers counted
 * every shape and view claim against the bytes present (issue 28, part 7): each is refused, with
 * the file, the place and why, or read at the cost of its size.
 */
const enc = new TextEncoder();

/** A torch.save zip under `archive/`, as torch 1.13 names and orders its records. */
const torchZip = (root: PickleValue | Uint8Array) => torchSaveBytes(root, { stem: "archive", layout: "torch-1.13" });

function refused(bytes: Uint8Array, name = "hostile.pt") {
  const result = readTensorFile(bytes, name);
  if (result.ok) throw new Error("expected a refusal");
  expect(result.error.message.startsWith(`${name}: `)).toBe(true);
  expect(result.error.message).not.toMatch(/internal error|unreachable|Invalid array length|call stack/);
  return result.error;
}

function safetensors(header: string, data: Uint8Array = new Uint8Array(0), claimed?: number): Uint8Array {
  const json = enc.encode(header);
  const out = new Uint8Array(8 + json.length + data.length);
  new DataView(out.buffer).setUint32(0, claimed ?? json.length, true);
  out.set(json, 8);
  out.set(data, 8 + json.length);
  return out;
}

function npy(shape: string, data: Uint8Array = new Uint8Array(0)): Uint8Array {
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': ${shape}, }`;
  while ((10 + header.length + 1) % 64 !== 0) header += " ";
  header += "\n";
  const out = new Uint8Array(10 + header.length + data.length);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, header.length & 255, header.length >> 8]);
  out.set(enc.encode(header), 10);
  out.set(data, 10 + header.length);
  return out;
}

describe("a zero-size tensor with a huge dimension costs nothing: refused where it is claimed", () => {
  it(".pt: rewards of shape (100000000, 0) in a few hundred bytes (was a 4.4 GB out-of-memory abort)", async () => {
    const bytes = await torchZip({ rewards: new TorchTensor(storageOf("float32", new Float32Array(0)), [1e8, 0]) });
    expect(bytes.length).toBeLessThan(1024);
    const error = refused(bytes);
    expect(error.where).toBe("field rewards");
    expect(error.message).toContain("shape (100000000, 0)");
  });

  it(".npz: rewards.npy of shape (100000000, 0), named by its record", () => {
    const bytes = zipSync({ "rewards.npy": npy("(100000000, 0)") }, { level: 0 });
    const error = refused(bytes, "hostile.npz");
    expect(error.where).toBe("record rewards.npy");
    expect(error.message).toContain("shape (100000000, 0)");
  });

  it(".safetensors: shapes (100000000, 0) and (2^53 − 1, 0), named by their header field (was 'Invalid array length')", () => {
    for (const dim of [1e8, 2 ** 53 - 1]) {
      const header = JSON.stringify({ rewards: { dtype: "F32", shape: [dim, 0], data_offsets: [0, 0] } });
      const error = refused(safetensors(header), "hostile.safetensors");
      expect(error.where).toBe('header field "rewards"');
      expect(error.message).toContain(`shape (${dim}, 0)`);
    }
  });

  it("a zero-size tensor of modest shape still reads", () => {
    const header = JSON.stringify({ rewards: { dtype: "F32", shape: [512, 0], data_offsets: [0, 0] } });
    const result = readTensorFile(safetensors(header), "empty.safetensors");
    expect(result.ok).toBe(true);
  });
});

describe("views that repeat their storage are charged against the file's size", () => {
  // 500 tensors of 88,000 tokens, each a stride-0 view of one float: 44 M elements from ~40 KB.
  const one = storageOf("float32", new Float32Array(1));
  const views = Array.from({ length: 500 }, () => new TorchTensor(one, [88_000], 0, [0]));
  // Each sample a dict of several fields, as slime writes them (a one-item dict is pickled without a MARK).
  const root = { samples: views.map((tokens, i) => ({ tokens, rollout_position: i })) };

  it("refused before anything is allocated (was 51 s and 3.1 GB)", async () => {
    const bytes = await torchZip(root);
    expect(bytes.length).toBeLessThan(64 * 1024);
    const error = refused(bytes);
    // The first view past the allowance: the twelfth sample's tokens (12 × 88,000 > 1 + 2^20).
    expect(error.where).toBe("field samples[11].tokens");
    expect(error.message).toMatch(/more than 2 views of the 1 its storages hold plus the allowance of 1048576/);
  });

  it("refused while the pickle runs, at the view past the allowance: the rest is never run (issue 28)", () => {
    const pickle = writeTorchPickle(root).bytes;
    // A refused GLOBAL just before the STOP: had the whole pickle run first, it would be the refusal.
    const evil = [0x63, ...enc.encode("os\nsystem\n"), 0x30, 0x2e];
    const tail = Uint8Array.from([...pickle.subarray(0, pickle.length - 1), ...evil]);
    const torch = torchPickleHooks("archive/data.pkl", "hostile.pt", false);
    let error: unknown = null;
    try {
      runPickle(tail, 0, torch.hooks, "archive/data.pkl", "hostile.pt");
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(TensorFileError);
    // The field, read off the pickle's stack before the tree exists.
    expect((error as TensorFileError).where).toBe("field samples[11].tokens");
    expect((error as TensorFileError).message).toMatch(/more than 2 views of the 1 its storages hold/);
  });

  it("names the field in nested dicts and lists, and the byte where the pickle does not say for certain", async () => {
    const samples = views.slice(0, 20).map((tokens) => ({ n: 1, tokens }));
    const nested: PickleValue = {
      run: {
        steps: [
          { a: 1, b: [2, 3] },
          { samples, id: 0 },
        ],
        id: 0,
      },
      id: 0,
    };
    expect(refused(await torchZip(nested)).where).toBe("field run.steps[1].samples[11].tokens");
    const inList: PickleValue = { samples: [{ n: 1, tokens: views.slice(0, 20) }], id: 0 };
    expect(refused(await torchZip(inList)).where).toBe("field samples[0].tokens[11]");
    // Dicts of one item are filled by a SETITEM without a MARK: the opcodes after the view say which.
    const oneItem = { samples: views.slice(0, 20).map((tokens) => ({ tokens })) };
    expect(refused(await torchZip(oneItem)).where).toBe("field samples[11].tokens");
    // A view inside a list built by its LIST opcode has no container on the stack yet: the byte is named.
    const listed = writeTorchPickle({ samples: views.slice(0, 20).map((tokens) => ({ tokens })) }).bytes;
    const marked = Uint8Array.from([0x80, 2, 0x28, ...listed.subarray(2, listed.length - 1), 0x6c, 0x2e]);
    const torch = torchPickleHooks("archive/data.pkl", "hostile.pt", false);
    expect(() => runPickle(marked, 0, torch.hooks, "archive/data.pkl", "hostile.pt")).toThrow(
      /^hostile\.pt: record archive\/data\.pkl, byte \d+: a view of storage '0'/,
    );
  });

  it("advantages and returns as two views of one storage, as slime's GRPO steps write them, read past the allowance", async () => {
    // 4 samples of 300,000 tokens: 2.4 M elements claimed from 1.2 M stored, 1.2 M beyond the allowance.
    const stores = Array.from({ length: 4 }, (_, i) => storageOf("float32", new Float32Array(300_000).fill(i)));
    const sample = (s: (typeof stores)[number], views: number) =>
      Object.fromEntries(
        ["advantages", "returns", "kl"].slice(0, views).map((k) => [k, new TorchTensor(s, [300_000])]),
      );
    const twice = readTensorFile(await torchZip({ samples: stores.map((s) => sample(s, 2)) }), "grpo.pt");
    if (!twice.ok) throw new Error(twice.error.message);
    // A third view of the same elements is past what slime writes: refused, and named.
    const error = refused(await torchZip({ samples: stores.map((s) => sample(s, 3)) }));
    expect(error.where).toBe("field samples[3].kl");
  });

  it("a few stride-0 views within the budget still read", async () => {
    const small = { samples: views.slice(0, 3).map((tokens) => ({ tokens })) };
    const result = readTensorFile(await torchZip(small), "ok.pt");
    expect(result.ok).toBe(true);
  });
});

describe("the pickle machine is linear, without recursion or spreads on data", () => {
  it("APPENDS of 300,000 items (was 'Maximum call stack size exceeded')", async () => {
    const program = [0x80, 2, 0x5d, 0x28];
    for (let i = 0; i < 300_000; i++) program.push(0x4b, i & 255);
    program.push(0x65, 0x2e);
    const result = readTensorFile(await torchZip(Uint8Array.from(program)), "long.pt");
    if (!result.ok) throw new Error(result.error.message);
    expect((result.value.root as number[]).length).toBe(300_000);
  });

  it("lists nested 100,000 deep by APPEND are refused by their depth, not by the call stack", async () => {
    const error = refused(await torchZip(Uint8Array.from(deepList(100_000))), "deep.pt");
    expect(error.message).toContain("nested deeper than 256");
  });
});

/** `[[[…]]]` n deep, without a MARK: the innermost list is kept in memo 0 and a new one appended to it. */
function deepList(n: number): number[] {
  const program = [0x80, 2, 0x5d, 0x71, 0]; // the root list, the innermost so far
  for (let i = 0; i < n; i++) {
    // BINGET 0, EMPTY_LIST, BINPUT 2, APPEND, POP, BINGET 2, BINPUT 0, POP
    program.push(0x68, 0, 0x5d, 0x71, 2, 0x61, 0x30, 0x68, 2, 0x71, 0, 0x30);
  }
  program.push(0x2e);
  return program;
}

describe("safetensors: bytes the reader would not use, and truncation, are named", () => {
  const f32 = (n: number) => new Uint8Array(4 * n);
  const spec = (begin: number, end: number) => ({
    dtype: "F32",
    shape: [(end - begin) / 4],
    data_offsets: [begin, end],
  });

  it("a truncated file is called one (was 'not a torch .pt, .npz or .safetensors file')", () => {
    const whole = safetensors(JSON.stringify({ a: spec(0, 16) }), f32(4));
    const error = refused(whole.subarray(0, 20), "cut.safetensors");
    expect(error.where).toBe("byte 0");
    expect(error.message).toContain("a truncated safetensors file");
  });

  it("a duplicate tensor name is refused by name (JSON keeps the last: the first vanished)", () => {
    const header = `{"rewards": ${JSON.stringify(spec(0, 8))}, "rewards": ${JSON.stringify(spec(8, 16))}}`;
    const error = refused(safetensors(header, f32(4)), "twice.safetensors");
    expect(error.where).toBe('header field "rewards"');
    expect(error.message).toContain("named twice");
  });

  it("a key inside a value is not a duplicate of a top-level name", () => {
    const header = JSON.stringify({ __metadata__: { a: "x" }, a: spec(0, 8) });
    expect(readTensorFile(safetensors(header, f32(2)), "ok.safetensors").ok).toBe(true);
  });

  it("data past the last tensor, a gap between tensors, overlapping ranges", () => {
    const trailing = refused(safetensors(JSON.stringify({ a: spec(0, 8) }), f32(3)), "tail.safetensors");
    expect(trailing.message).toContain("4 bytes follow the last tensor's data");
    const gap = refused(safetensors(JSON.stringify({ a: spec(0, 4), b: spec(8, 12) }), f32(3)), "gap.safetensors");
    expect(gap.message).toContain("data bytes 4…7 belong to no tensor");
    const overlap = refused(safetensors(JSON.stringify({ a: spec(0, 8), b: spec(4, 12) }), f32(3)), "o.safetensors");
    expect(overlap.where).toBe('header field "b"');
    expect(overlap.message).toContain('overlap "a"');
  });
});

describe("legacy torch files: the header holds no storages, and nothing follows the last storage", () => {
  const magic = [0x80, 2, 0x8a, 10, 0x6c, 0xfc, 0x9c, 0x46, 0xf9, 0x20, 0x6a, 0xa8, 0x50, 0x19, 0x2e];

  it("BINPERSID in a header pickle is named (was 'internal error … unreachable')", () => {
    const protocol = [0x80, 2, 0x4d, 1001 & 255, 1001 >> 8, 0x2e];
    const sysInfo = [0x80, 2, 0x4e, 0x51, 0x2e];
    const error = refused(Uint8Array.from([...magic, ...protocol, ...sysInfo]), "legacy.pt");
    expect(error.where).toBe(`byte ${magic.length + protocol.length + 3}`);
    expect(error.message).toContain("a persistent id in the legacy header");
  });

  it("4 KB after the last storage is refused (was silently accepted)", () => {
    const good = fixtureBytes("generated/legacy_grpo_kl0.pt");
    expect(readTensorFile(good, "legacy.pt").ok).toBe(true);
    const padded = new Uint8Array(good.length + 4096);
    padded.set(good);
    const error = refused(padded, "legacy.pt");
    expect(error.where).toBe(`byte ${good.length}`);
    expect(error.message).toContain("4096 bytes follow the last storage");
  });
});
