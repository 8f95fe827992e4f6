/**
 * Test and bench support: the pickle of a `torch.save` file (`data.pkl`), written the way CPython's
 * protocol-2 Pickler writes it under torch 1.13 and 2.x: GLOBAL (never STACK_GLOBAL), BINPUT after
 * every string, list, dict, non-empty tuple, global and reduce, BINGET on a repeat, APPENDS and
 * SETITEMS in batches of 1000, and each tensor as `torch._utils._rebuild_tensor_v2` of a storage
 * named by BINPERSID. The storages themselves are not here: they are records of the zip
 * (torchZipWriter), filled only when the writer reaches them.
 */

/** The storage classes torch names in a persistent id, by dtype. */
export const STORAGE_CLASSES = {
  float32: { name: "FloatStorage", itemSize: 4 },
  int64: { name: "LongStorage", itemSize: 8 },
  int32: { name: "IntStorage", itemSize: 4 },
  bool: { name: "BoolStorage", itemSize: 1 },
} as const;
export type StorageDtype = keyof typeof STORAGE_CLASSES;

/**
 * One storage record: its dtype, its element count, and its bytes as chunks (little-endian typed
 * arrays), asked for once, when the zip writer reaches the record, so no file sits in memory.
 */
export interface TorchStorage {
  readonly dtype: StorageDtype;
  readonly numel: number;
  chunks(): Iterable<ArrayBufferView>;
}

/** A tensor: a view (offset, shape, stride in elements) of a storage, as `_rebuild_tensor_v2` takes it. */
export class TorchTensor {
  readonly stride: number[];
  constructor(
    readonly storage: TorchStorage,
    readonly shape: number[],
    readonly offset = 0,
    stride?: number[],
  ) {
    this.stride = stride ?? contiguousStride(shape);
  }
}

/** A Python float, for a whole number that must stay a float (`rewards`: `1.0`, not `1`). */
export class PyFloat {
  constructor(readonly value: number) {}
}

/**
 * What the writer takes: a JS number that is a safe integer is a Python int, any other (1e300,
 * -0, 0.5) a float, and PyFloat forces a float (`1.0`); a bigint is an int; arrays are lists;
 * plain objects and Maps are dicts in insertion order. No tuples: a dump holds none but torch's own.
 */
export type PickleValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | PyFloat
  | TorchTensor
  | PickleValue[]
  | Map<string, PickleValue>
  | { [key: string]: PickleValue };

/** A pickle with the storages it names, in the order their keys were given (`'0'`, `'1'`, …). */
export interface TorchPickle {
  bytes: Uint8Array;
  storages: TorchStorage[];
}

/** Items per APPENDS or SETITEMS, as CPython's Pickler batches them. */
const PICKLE_BATCH = 1000;
const OP = {
  PROTO: 0x80,
  STOP: 0x2e,
  MARK: 0x28,
  NONE: 0x4e,
  NEWTRUE: 0x88,
  NEWFALSE: 0x89,
  BININT: 0x4a,
  BININT1: 0x4b,
  BININT2: 0x4d,
  LONG1: 0x8a,
  BINFLOAT: 0x47,
  BINUNICODE: 0x58,
  EMPTY_LIST: 0x5d,
  APPEND: 0x61,
  APPENDS: 0x65,
  EMPTY_DICT: 0x7d,
  SETITEM: 0x73,
  SETITEMS: 0x75,
  EMPTY_TUPLE: 0x29,
  TUPLE: 0x74,
  TUPLE1: 0x85,
  TUPLE2: 0x86,
  TUPLE3: 0x87,
  GLOBAL: 0x63,
  REDUCE: 0x52,
  BINPERSID: 0x51,
  BINPUT: 0x71,
  LONG_BINPUT: 0x72,
  BINGET: 0x68,
  LONG_BINGET: 0x6a,
} as const;

/** Grows by doubling; the pickle of a dump is metadata only (a few hundred bytes per sample). */
class ByteBuffer {
  private buf = new Uint8Array(1 << 12);
  private view = new DataView(this.buf.buffer);
  length = 0;

  private room(n: number) {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }
  byte(b: number) {
    this.room(1);
    this.buf[this.length++] = b;
  }
  u16(n: number) {
    this.room(2);
    this.view.setUint16(this.length, n, true);
    this.length += 2;
  }
  u32(n: number) {
    this.room(4);
    this.view.setUint32(this.length, n, true);
    this.length += 4;
  }
  i32(n: number) {
    this.room(4);
    this.view.setInt32(this.length, n, true);
    this.length += 4;
  }
  f64be(x: number) {
    this.room(8);
    this.view.setFloat64(this.length, x, false);
    this.length += 8;
  }
  bytes(b: Uint8Array) {
    this.room(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }
  result(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

const utf8 = new TextEncoder();

export interface TorchPickleOptions {
  /**
   * Items per APPENDS or SETITEMS (PICKLE_BATCH, as torch writes). A hostile file that no torch
   * writes but a reader must take in linear work, one APPENDS of 150,000 items: Infinity.
   */
  batch?: number;
}

/** The pickle of `root` as torch.save writes it, and the storages in key order. */
export function writeTorchPickle(root: PickleValue, options: TorchPickleOptions = {}): TorchPickle {
  const batch = options.batch ?? PICKLE_BATCH;
  const out = new ByteBuffer();
  // CPython memoizes by identity; strings and globals here by value, which a reader cannot tell apart.
  const memo = new Map<unknown, number>();
  let memoSize = 0;
  const storageKeys = new Map<TorchStorage, string>();
  const storages: TorchStorage[] = [];

  const put = (key: unknown) => {
    const index = memoSize++;
    if (key !== undefined) memo.set(key, index);
    if (index < 256) {
      out.byte(OP.BINPUT);
      out.byte(index);
    } else {
      out.byte(OP.LONG_BINPUT);
      out.u32(index);
    }
  };
  const get = (key: unknown): boolean => {
    const index = memo.get(key);
    if (index === undefined) return false;
    if (index < 256) {
      out.byte(OP.BINGET);
      out.byte(index);
    } else {
      out.byte(OP.LONG_BINGET);
      out.u32(index);
    }
    return true;
  };

  const int = (n: number | bigint) => {
    if (typeof n === "number" && !Number.isSafeInteger(n)) throw new Error(`pickle: ${n} is not a safe integer`);
    const big = BigInt(n);
    if (big >= 0n && big < 256n) {
      out.byte(OP.BININT1);
      out.byte(Number(big));
    } else if (big >= 0n && big < 65536n) {
      out.byte(OP.BININT2);
      out.u16(Number(big));
    } else if (big >= -(2n ** 31n) && big < 2n ** 31n) {
      out.byte(OP.BININT);
      out.i32(Number(big));
    } else {
      // CPython's encode_long: the shortest little-endian two's complement.
      const bytes: number[] = [];
      let v = big;
      for (;;) {
        const b = Number(v & 0xffn);
        bytes.push(b);
        v >>= 8n;
        if ((v === 0n && b < 0x80) || (v === -1n && b >= 0x80)) break;
      }
      out.byte(OP.LONG1);
      out.byte(bytes.length);
      for (const b of bytes) out.byte(b);
    }
  };
  const str = (s: string) => {
    if (get(`s:${s}`)) return;
    const b = utf8.encode(s);
    out.byte(OP.BINUNICODE);
    out.u32(b.length);
    out.bytes(b);
    put(`s:${s}`);
  };
  const global = (module: string, name: string) => {
    const key = `g:${module}\n${name}`;
    if (get(key)) return;
    out.byte(OP.GLOBAL);
    out.bytes(utf8.encode(`${module}\n${name}\n`));
    put(key);
  };
  const tuple = (items: (() => void)[]) => {
    if (items.length === 0) {
      out.byte(OP.EMPTY_TUPLE);
      return;
    }
    if (items.length > 3) out.byte(OP.MARK);
    for (const item of items) item();
    out.byte(items.length > 3 ? OP.TUPLE : [OP.TUPLE1, OP.TUPLE2, OP.TUPLE3][items.length - 1]);
    put(undefined);
  };
  const ints = (xs: number[]) => tuple(xs.map((x) => () => int(x)));
  const batched = <T>(items: T[], one: (item: T) => void, single: number, many: number) => {
    for (let start = 0; start < items.length; start += batch) {
      const part = items.slice(start, start + batch);
      if (part.length > 1) out.byte(OP.MARK);
      for (const item of part) one(item);
      out.byte(part.length > 1 ? many : single);
    }
  };

  const tensor = (t: TorchTensor) => {
    if (get(t)) return;
    checkView(t);
    global("torch._utils", "_rebuild_tensor_v2");
    out.byte(OP.MARK);
    let key = storageKeys.get(t.storage);
    if (key === undefined) {
      key = String(storages.length);
      storageKeys.set(t.storage, key);
      storages.push(t.storage);
    }
    const storageKey = key;
    // torch's persistent_id: ('storage', <storage class>, key, location, numel), a fresh tuple each time.
    tuple([
      () => str("storage"),
      () => global("torch", STORAGE_CLASSES[t.storage.dtype].name),
      () => str(storageKey),
      () => str("cpu"),
      () => int(t.storage.numel),
    ]);
    out.byte(OP.BINPERSID);
    int(t.offset);
    ints(t.shape);
    ints(t.stride);
    out.byte(OP.NEWFALSE);
    global("collections", "OrderedDict");
    out.byte(OP.EMPTY_TUPLE);
    out.byte(OP.REDUCE);
    put(undefined);
    out.byte(OP.TUPLE);
    put(undefined);
    out.byte(OP.REDUCE);
    put(t);
  };

  // Depth is the value tree's (a dump's is four levels), so recursion is bounded by the caller's data.
  const save = (v: PickleValue): void => {
    if (v === null) out.byte(OP.NONE);
    else if (v === true) out.byte(OP.NEWTRUE);
    else if (v === false) out.byte(OP.NEWFALSE);
    else if (typeof v === "bigint") int(v);
    else if (typeof v === "number") {
      if (Number.isSafeInteger(v) && !Object.is(v, -0)) int(v);
      else float(v);
    } else if (typeof v === "string") str(v);
    else if (v instanceof PyFloat) float(v.value);
    else if (v instanceof TorchTensor) tensor(v);
    else if (Array.isArray(v)) {
      out.byte(OP.EMPTY_LIST);
      put(undefined);
      batched(v, save, OP.APPEND, OP.APPENDS);
    } else {
      out.byte(OP.EMPTY_DICT);
      put(undefined);
      const entries = v instanceof Map ? [...v.entries()] : Object.entries(v);
      batched(
        entries,
        ([k, item]) => {
          str(k);
          save(item);
        },
        OP.SETITEM,
        OP.SETITEMS,
      );
    }
  };
  const float = (x: number) => {
    out.byte(OP.BINFLOAT);
    out.f64be(x);
  };

  out.byte(OP.PROTO);
  out.byte(2);
  save(root);
  out.byte(OP.STOP);
  return { bytes: out.result(), storages };
}

function contiguousStride(shape: number[]): number[] {
  const stride = new Array<number>(shape.length);
  let step = 1;
  for (let d = shape.length - 1; d >= 0; d--) {
    stride[d] = step;
    step *= shape[d];
  }
  return stride;
}

/** A view that reads past its storage would make a file torch itself refuses: never write one. */
function checkView(t: TorchTensor) {
  if (t.shape.length !== t.stride.length) throw new Error("pickle: a tensor's shape and stride differ in rank");
  if (t.shape.some((n) => n === 0)) return;
  const last = t.offset + t.shape.reduce((end, n, d) => end + (n - 1) * t.stride[d], 0);
  if (t.offset < 0 || last >= t.storage.numel) {
    throw new Error(`pickle: a view reaching element ${last} of a storage of ${t.storage.numel}`);
  }
}
