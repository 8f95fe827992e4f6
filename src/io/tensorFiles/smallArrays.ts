/**
 * Small typed arrays cut out of shared slabs: a dump of 150,000 samples of a few tokens holds 1.2 M
 * per-token fields, and each as an array of its own is an ArrayBuffer object beside the array (some
 * 100 bytes a field, 120 MB of the command's peak and as many objects for every collection to walk).
 * Each array is a view of a region no other array is given, so no one sees another's elements; a
 * slab's memory goes when the last of its arrays does. Larger arrays are made as usual.
 */

/** Arrays of at most this many bytes are cut from a slab. */
export const SMALL_ARRAY_BYTES = 1024;
const SLAB_BYTES = 1 << 16;

type SmallArray = Float32Array | Float64Array | Int32Array;
type SmallKind = "float32" | "float64" | "int32";

const slabs: Record<SmallKind, { buffer: ArrayBuffer; used: number }> = {
  float32: { buffer: new ArrayBuffer(0), used: 0 },
  float64: { buffer: new ArrayBuffer(0), used: 0 },
  int32: { buffer: new ArrayBuffer(0), used: 0 },
};

/** Slabs' buffers, so that a reader copying views out of a file's bytes (the run view) leaves these alone. */
const slabBuffers = new WeakSet<ArrayBufferLike>();

export function isSlab(buffer: ArrayBufferLike): boolean {
  return slabBuffers.has(buffer);
}

/** A zeroed array of `length` elements of `kind`: from a slab when small. */
export function smallArray(kind: "float32", length: number): Float32Array;
export function smallArray(kind: "float64", length: number): Float64Array;
export function smallArray(kind: "int32", length: number): Int32Array;
export function smallArray(kind: SmallKind, length: number): SmallArray {
  const item = kind === "float64" ? 8 : 4;
  const bytes = length * item;
  if (bytes > SMALL_ARRAY_BYTES || bytes === 0) return make(kind, new ArrayBuffer(bytes), 0, length);
  const slab = slabs[kind];
  if (slab.used + bytes > slab.buffer.byteLength) {
    slab.buffer = new ArrayBuffer(SLAB_BYTES);
    slabBuffers.add(slab.buffer);
    slab.used = 0;
  }
  const out = make(kind, slab.buffer, slab.used, length);
  slab.used += bytes;
  return out;
}

function make(kind: SmallKind, buffer: ArrayBuffer, offset: number, length: number): SmallArray {
  if (kind === "float32") return new Float32Array(buffer, offset, length);
  if (kind === "float64") return new Float64Array(buffer, offset, length);
  return new Int32Array(buffer, offset, length);
}
