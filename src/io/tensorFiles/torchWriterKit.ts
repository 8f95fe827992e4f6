import { zipSync } from "fflate";

/**
 * Test support: a small writer of torch.save zip files, for inputs built in a test (hostile shapes
 * and views, tens of thousands of samples) instead of committed fixtures. It writes the protocol-2
 * pickle torch writes: dicts and lists filled with MARK … SETITEMS / APPENDS, `_rebuild_tensor_v2`
 * of a persistent storage id, and a memo entry for every object written twice (by identity), so
 * shared keys and tensors cost a few bytes each, as in torch's own files.
 */
export interface TensorSpec {
  kind: "tensor-spec";
  storage: string;
  storageClass?: string;
  /** Elements the storage holds (its record is written with that many zero or given bytes). */
  numel: number;
  offset?: number;
  shape: number[];
  /** C-contiguous when left out. */
  stride?: number[];
}

export type PickleSpec =
  | null
  | boolean
  | number
  | bigint
  | string
  | PickleSpec[]
  | Map<string, PickleSpec>
  | { [key: string]: PickleSpec }
  | TensorSpec;

export function tensorSpec(
  storage: string,
  numel: number,
  shape: number[],
  more: Partial<TensorSpec> = {},
): TensorSpec {
  return { kind: "tensor-spec", storage, numel, shape, ...more };
}

const enc = new TextEncoder();

export class PickleWriter {
  private out: number[] = [0x80, 2];
  private memo = new Map<unknown, number>();

  private u32(n: number) {
    this.out.push(n & 255, (n >>> 8) & 255, (n >>> 16) & 255, (n >>> 24) & 255);
  }

  /** Writes a memo GET when `key` was written before; else writes it and memoises it. */
  private memoised(key: unknown, write: () => void) {
    const slot = this.memo.get(key);
    if (slot !== undefined) {
      this.out.push(0x6a);
      this.u32(slot);
      return;
    }
    write();
    const index = this.memo.size;
    this.memo.set(key, index);
    this.out.push(0x72);
    this.u32(index);
  }

  raw(...bytes: number[]) {
    for (const b of bytes) this.out.push(b);
    return this;
  }

  global(name: string) {
    const dot = name.lastIndexOf(".");
    this.memoised(`global:${name}`, () => {
      this.out.push(0x63);
      for (const b of enc.encode(`${name.slice(0, dot)}\n${name.slice(dot + 1)}\n`)) this.out.push(b);
    });
  }

  string(s: string) {
    this.memoised(`str:${s}`, () => {
      const bytes = enc.encode(s);
      this.out.push(0x58);
      this.u32(bytes.length);
      for (const b of bytes) this.out.push(b);
    });
  }

  int(n: number | bigint) {
    if (typeof n === "number" && Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31) {
      this.out.push(0x4a);
      this.u32(n);
      return;
    }
    let v = BigInt(n);
    const bytes: number[] = [];
    for (let i = 0; i < 9; i++) {
      bytes.push(Number(v & 255n));
      v >>= 8n;
    }
    this.out.push(0x8a, bytes.length, ...bytes);
  }

  value(v: PickleSpec): this {
    if (v === null) this.out.push(0x4e);
    else if (typeof v === "boolean") this.out.push(v ? 0x88 : 0x89);
    else if (typeof v === "bigint") this.int(v);
    else if (typeof v === "number") {
      if (Number.isInteger(v) && Math.abs(v) < 2 ** 31) this.int(v);
      else {
        const b = new DataView(new ArrayBuffer(8));
        b.setFloat64(0, v, false);
        this.out.push(0x47);
        for (let i = 0; i < 8; i++) this.out.push(b.getUint8(i));
      }
    } else if (typeof v === "string") this.string(v);
    else if (Array.isArray(v)) {
      const fresh = !this.memo.has(v);
      this.memoised(v, () => {
        this.out.push(0x5d);
      });
      if (fresh && v.length > 0) {
        this.out.push(0x28);
        for (const x of v) this.value(x);
        this.out.push(0x65);
      }
    } else if ((v as TensorSpec).kind === "tensor-spec") this.tensor(v as TensorSpec);
    else {
      const entries = v instanceof Map ? [...v] : Object.entries(v);
      const fresh = !this.memo.has(v);
      this.memoised(v, () => {
        this.out.push(0x7d);
      });
      if (fresh && entries.length > 0) {
        this.out.push(0x28);
        for (const [k, x] of entries) {
          this.string(k);
          this.value(x);
        }
        this.out.push(0x75);
      }
    }
    return this;
  }

  tensor(t: TensorSpec) {
    if (this.memo.has(t)) {
      this.memoised(t, () => {});
      return;
    }
    const stride = t.stride ?? t.shape.map((_, d) => t.shape.slice(d + 1).reduce((a, b) => a * b, 1));
    this.global("torch._utils._rebuild_tensor_v2");
    this.out.push(0x28, 0x28);
    this.string("storage");
    this.global(t.storageClass ?? "torch.FloatStorage");
    this.string(t.storage);
    this.string("cpu");
    this.int(t.numel);
    this.out.push(0x74, 0x51);
    this.int(t.offset ?? 0);
    this.out.push(0x28);
    for (const s of t.shape) this.int(s);
    this.out.push(0x74, 0x28);
    for (const s of stride) this.int(s);
    this.out.push(0x74, 0x89);
    this.global("collections.OrderedDict");
    this.out.push(0x29, 0x52, 0x74, 0x52);
    this.memoised(t, () => {});
  }

  finish(): Uint8Array {
    this.out.push(0x2e);
    return Uint8Array.from(this.out);
  }
}

/** The pickle of `root` alone (protocol 2, ending in STOP). */
export function pickleOf(root: PickleSpec): Uint8Array {
  return new PickleWriter().value(root).finish();
}

/**
 * A torch.save zip of `root`: `archive/data.pkl` and a stored record per storage, filled from
 * `storages` where given, else zeros of the size its tensors claim (4 bytes an element).
 */
export function torchZip(root: PickleSpec | Uint8Array, storages: Record<string, Uint8Array> = {}): Uint8Array {
  const pickle = root instanceof Uint8Array ? root : pickleOf(root);
  const files: Record<string, Uint8Array> = { "archive/data.pkl": pickle };
  for (const [key, bytes] of Object.entries(storages)) files[`archive/data/${key}`] = bytes;
  return zipSync(files, { level: 0 });
}
