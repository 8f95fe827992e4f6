import { SMALL_ARRAY_BYTES, smallArray } from "./smallArrays";
import type { TensorData, TensorDtype } from "./tensorTypes";

/**
 * How each stored element type is decoded: its size in bytes and the dtype it is held as. bf16
 * and float16 are widened to float32 (exactly: every value of both is a float32 value); int64 is
 * held as float64 and refused past 2^53, where a float64 would round it.
 */
export type StoredType = TensorDtype | "bfloat16" | "float16";

export const ITEM_SIZE: Record<StoredType, number> = {
  float32: 4,
  float64: 8,
  int32: 4,
  int64: 8,
  bool: 1,
  uint8: 1,
  int8: 1,
  int16: 2,
  bfloat16: 2,
  float16: 2,
};

export function heldAs(stored: StoredType): TensorDtype {
  return stored === "bfloat16" || stored === "float16" ? "float32" : stored;
}

export function allocate(dtype: TensorDtype, length: number): TensorData {
  switch (dtype) {
    case "float32":
      return new Float32Array(length);
    case "float64":
    case "int64":
      return new Float64Array(length);
    case "int32":
      return new Int32Array(length);
    case "int16":
      return new Int16Array(length);
    case "int8":
      return new Int8Array(length);
    case "bool":
    case "uint8":
      return new Uint8Array(length);
  }
}

/** The first int64 element of a decoded array that a float64 cannot hold (held there as NaN). */
const beyond = new WeakMap<TensorData, { element: number; value: bigint }>();

export function beyondSafeInteger(data: TensorData): { element: number; value: bigint } | undefined {
  return beyond.get(data);
}

/** Remembers an array's first int64 beyond ±2^53 (a view gathered from a decoded storage). */
export function markBeyondSafeInteger(data: TensorData, element: number, value: bigint): void {
  if (!beyond.has(data)) beyond.set(data, { element, value });
}

/**
 * Decodes `count` little-endian elements of `stored` starting at `bytes[0]`. An int64 beyond ±2^53
 * is held as NaN and the first one remembered (beyondSafeInteger): refused by whoever reads it.
 */
export function decodeElements(bytes: Uint8Array, stored: StoredType, count: number, owned = false) {
  const fast = aligned(bytes, stored, count, owned);
  if (fast) return fast;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = allocate(heldAs(stored), count);
  switch (stored) {
    case "float32":
      for (let i = 0; i < count; i++) out[i] = view.getFloat32(4 * i, true);
      break;
    case "float64":
      for (let i = 0; i < count; i++) out[i] = view.getFloat64(8 * i, true);
      break;
    case "int32":
      for (let i = 0; i < count; i++) out[i] = view.getInt32(4 * i, true);
      break;
    case "int16":
      for (let i = 0; i < count; i++) out[i] = view.getInt16(2 * i, true);
      break;
    case "int8":
      for (let i = 0; i < count; i++) out[i] = view.getInt8(i);
      break;
    case "uint8":
      out.set(bytes.subarray(0, count));
      break;
    case "bool":
      for (let i = 0; i < count; i++) out[i] = bytes[i] === 0 ? 0 : 1;
      break;
    case "int64":
      for (let i = 0; i < count; i++) {
        const low = view.getUint32(8 * i, true);
        const high = view.getInt32(8 * i + 4, true);
        // |high| < 2^21 keeps high·2^32 + low within the integers a float64 holds exactly.
        if (high >= 2 ** 21 || high < -(2 ** 21)) {
          if (!beyond.has(out)) beyond.set(out, { element: i, value: view.getBigInt64(8 * i, true) });
          out[i] = Number.NaN;
          continue;
        }
        out[i] = high * 2 ** 32 + low;
      }
      break;
    case "bfloat16":
      for (let i = 0; i < count; i++) out[i] = bfloat16ToNumber(view.getUint16(2 * i, true));
      break;
    case "float16":
      for (let i = 0; i < count; i++) out[i] = float16ToNumber(view.getUint16(2 * i, true));
      break;
  }
  return out;
}

const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/**
 * float32, float64 and int32 storages on a little-endian machine, aligned as torch writes them
 * (64-byte records): a typed-array view instead of an element loop, copied unless the caller
 * `owned` the bytes (a fresh read no one else holds: the view is then the elements, no copy); a
 * small copy is cut from a slab (smallArrays.ts).
 */
function aligned(bytes: Uint8Array, stored: StoredType, count: number, owned: boolean) {
  if (!LITTLE_ENDIAN) return null;
  const size = ITEM_SIZE[stored];
  if (bytes.byteOffset % size !== 0) return null;
  const view =
    stored === "float32"
      ? new Float32Array(bytes.buffer, bytes.byteOffset, count)
      : stored === "float64"
        ? new Float64Array(bytes.buffer, bytes.byteOffset, count)
        : stored === "int32"
          ? new Int32Array(bytes.buffer, bytes.byteOffset, count)
          : null;
  if (!view || owned) return view;
  // A copy: a small one cut from a slab (smallArrays.ts), not an ArrayBuffer of its own.
  if (view.byteLength > SMALL_ARRAY_BYTES) return view.slice();
  const copy = smallArray(stored as "float32", count) as typeof view;
  copy.set(view);
  return copy;
}

const widen = new DataView(new ArrayBuffer(4));

/** bf16 is the top half of a float32. */
export function bfloat16ToNumber(bits: number): number {
  widen.setUint32(0, bits << 16);
  return widen.getFloat32(0);
}

/** IEEE half: 1 sign, 5 exponent, 10 fraction bits. */
export function float16ToNumber(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 0x1f) return fraction === 0 ? sign * Number.POSITIVE_INFINITY : Number.NaN;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}
