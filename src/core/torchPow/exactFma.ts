/**
 * Fused multiply-adds with one rounding, for ports of C code that a compiler or an intrinsic
 * made fused: `fma32` rounds a·b + c once to float32 (AVX2's `vfmadd…ps`), `fma64` once to
 * float64 (`vfmadd…sd`). JavaScript has neither; both are emulated exactly in doubles.
 */

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const f64 = new Float64Array(1);
const u64 = new Uint32Array(f64.buffer); // little-endian: [low word, high word]

/** The float32 next to `x` (a float32, finite) in the direction of `sign` (+1 up, -1 down). */
function nextFloat32(x: number, sign: number): number {
  if (x === 0) return sign > 0 ? 2 ** -149 : -(2 ** -149);
  f32[0] = x;
  // Away from zero when the step and x agree in sign, toward zero otherwise.
  u32[0] += x > 0 === sign > 0 ? 1 : -1;
  return f32[0];
}

/** The error of `s = a + b` (Knuth's TwoSum): a + b = s + err exactly. */
function twoSumError(a: number, b: number, s: number): number {
  const bb = s - a;
  return a - (s - bb) + (b - bb);
}

/**
 * fl32(a·b + c) for float32 a, b, c. The product of two float32 numbers is exact in a double,
 * so only the sum rounds twice (to double, then to float32). That double rounding can only go
 * wrong when the double sum lands exactly on a midpoint between two float32 numbers (rounding
 * is monotone and midpoints are doubles); there the sign of the sum's error decides.
 */
export function fma32(a: number, b: number, c: number): number {
  const p = a * b;
  const s = p + c;
  const r = Math.fround(s);
  if (r === s || !Number.isFinite(s)) return r;
  const err = twoSumError(p, c, s);
  if (err === 0) return r;
  const other = nextFloat32(r, s > r ? 1 : -1);
  if ((r + other) / 2 !== s) return r;
  // On the midpoint: the exact value lies on the side of the error.
  return err > 0 ? Math.max(r, other) : Math.min(r, other);
}

/** Dekker's split of a double into two halves of 26 bits (Veltkamp, factor 2^27 + 1). */
const SPLIT = 134217729;

/** a·b = hi + lo exactly (Dekker's TwoProduct; no overflow or underflow in our ranges). */
function twoProduct(a: number, b: number): [number, number] {
  const hi = a * b;
  const ca = SPLIT * a;
  const ah = ca - (ca - a);
  const al = a - ah;
  const cb = SPLIT * b;
  const bh = cb - (cb - b);
  const bl = b - bh;
  const lo = al * bl - (hi - ah * bh - al * bh - ah * bl);
  return [hi, lo];
}

/** a + b rounded to odd: exact if representable, else the neighbour whose last bit is 1. */
function addRoundToOdd(a: number, b: number): number {
  const s = a + b;
  const err = twoSumError(a, b, s);
  if (err === 0 || !Number.isFinite(s)) return s;
  f64[0] = s;
  if ((u64[0] & 1) === 1) return s;
  // s is even, so the odd neighbour is the one on the error's side.
  const away = s > 0 === err > 0;
  if (away) {
    u64[0] = (u64[0] + 1) >>> 0;
    if (u64[0] === 0) u64[1] += 1;
  } else {
    if (u64[0] === 0) u64[1] -= 1;
    u64[0] = (u64[0] - 1) >>> 0;
  }
  return f64[0];
}

/**
 * fl64(a·b + c), Boldo and Melquiond's emulation (IEEE Trans. Computers 57(4), 2008, Alg. 5.4):
 * the exact product as two doubles, TwoSum with c, the two low parts added rounded to odd, then
 * one rounding to nearest. Valid away from overflow and underflow, which glibc's powf stays in.
 */
export function fma64(a: number, b: number, c: number): number {
  const [uh, ul] = twoProduct(a, b);
  const th = c + uh;
  const tl = twoSumError(c, uh, th);
  return th + addRoundToOdd(tl, ul);
}
