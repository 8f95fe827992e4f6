import { fma64 } from "./exactFma";
import { EXP2F_POLY, EXP2F_SHIFT, EXP2F_TABLE, POWF_LOG2_INVC, POWF_LOG2_LOGC, POWF_LOG2_POLY } from "./glibcPowfData";

/**
 * glibc 2.36's `powf` (sysdeps/ieee754/flt-32/e_powf.c), as x86-64 runs it on a CPU with FMA
 * and AVX2: the ifunc picks `__powf_fma`, the same C compiled with -mfma, and GCC contracts
 * every `a * b + c` of log2_inline and exp2_inline into one fused multiply-add (checked in the
 * disassembly of Debian's libm.so.6). This is what `std::pow(float, float)` is in torch's scalar
 * loops. Its result is the double exp2(y·log2 x) rounded once to float32: within 0.82 ulp, not
 * always the correctly rounded power.
 */

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

function asuint(x: number): number {
  f32[0] = x;
  return u32[0];
}

function asfloat(i: number): number {
  u32[0] = i;
  return f32[0];
}

const OFF = 0x3f330000;

/** log2 of the float whose bits are ix (positive, normal or pre-normalised), in double. */
function log2Inline(ix: number): number {
  const tmp = (ix - OFF) >>> 0;
  const i = (tmp >>> 19) % 16;
  const top = (tmp & 0xff800000) >>> 0;
  const iz = (ix - top) >>> 0;
  const k = (top | 0) >> 23;
  const invc = POWF_LOG2_INVC[i];
  const logc = POWF_LOG2_LOGC[i];
  const z = asfloat(iz);
  const A = POWF_LOG2_POLY;
  const r = fma64(z, invc, -1);
  const y0 = logc + k;
  const r2 = r * r;
  let y = fma64(A[0], r, A[1]);
  const p = fma64(A[2], r, A[3]);
  const r4 = r2 * r2;
  let q = fma64(A[4], r, y0);
  q = fma64(p, r2, q);
  y = fma64(y, r4, q);
  return y;
}

/** 2^xd in double, |xd| < 150; negative when the power of a negative base is odd. */
function exp2Inline(xd: number, negative: boolean): number {
  // kd = xd + SHIFT rounds xd to a multiple of 1/32; its low mantissa bits hold m = 32·kd.
  const kd = xd + EXP2F_SHIFT - EXP2F_SHIFT;
  const m = Math.round(kd * 32);
  const r = xd - kd;
  // T[m % 32] + (m << 47) as a double is 2^((m mod 32)/32) · 2^floor(m/32): an exact scaling.
  const s = EXP2F_TABLE[m & 31] * 2 ** (m >> 5) * (negative ? -1 : 1);
  const C = EXP2F_POLY;
  const z = fma64(C[0], r, C[1]);
  const r2 = r * r;
  let y = fma64(C[2], r, 1);
  y = fma64(z, r2, y);
  return y * s;
}

/** 0 if not an integer, 1 if odd, 2 if even, for the bits of a non-zero finite float. */
function checkint(iy: number): number {
  const e = (iy >>> 23) & 0xff;
  if (e < 0x7f) return 0;
  if (e > 0x7f + 23) return 2;
  if (iy & ((1 << (0x7f + 23 - e)) - 1)) return 0;
  if (iy & (1 << (0x7f + 23 - e))) return 1;
  return 2;
}

function zeroInfNan(ix: number): boolean {
  return (2 * ix - 1) >>> 0 >= 2 * 0x7f800000 - 1;
}

/** glibc's powf for float32 x and y (round to nearest, no errno). */
export function glibcPowf(x: number, y: number): number {
  let negative = false;
  let ix = asuint(x);
  const iy = asuint(y);
  if ((ix - 0x00800000) >>> 0 >= 0x7f800000 - 0x00800000 || zeroInfNan(iy)) {
    if (zeroInfNan(iy)) {
      if ((2 * iy) >>> 0 === 0) return 1;
      if (ix === 0x3f800000) return 1;
      if ((2 * ix) >>> 0 > 2 * 0x7f800000 || (2 * iy) >>> 0 > 2 * 0x7f800000) return Math.fround(x + y);
      if ((2 * ix) >>> 0 === 2 * 0x3f800000) return 1;
      if ((2 * ix) >>> 0 < 2 * 0x3f800000 === !(iy & 0x80000000)) return 0;
      return Math.fround(y * y);
    }
    if (zeroInfNan(ix)) {
      let x2 = Math.fround(x * x);
      if (ix & 0x80000000 && checkint(iy) === 1) x2 = -x2;
      return iy & 0x80000000 ? Math.fround(1 / x2) : x2;
    }
    if (ix & 0x80000000) {
      const yint = checkint(iy);
      if (yint === 0) return Number.NaN;
      if (yint === 1) negative = true;
      ix = (ix & 0x7fffffff) >>> 0;
    }
    if (ix < 0x00800000) {
      // Normalise a subnormal x so that its exponent field goes negative.
      ix = (asuint(Math.fround(asfloat(ix) * 2 ** 23)) & 0x7fffffff) >>> 0;
      ix = (ix - (23 << 23)) >>> 0;
    }
  }
  const logx = log2Inline(ix);
  const ylogx = y * logx;
  if (Math.abs(ylogx) >= 126) {
    const sign = negative ? -1 : 1;
    if (ylogx > 127.99999995700433 /* 0x1.fffffffd1d571p+6: |x^y| > 0x1.ffffffp127 */)
      return sign * Number.POSITIVE_INFINITY;
    if (ylogx <= -150) return sign * 0;
  }
  return Math.fround(exp2Inline(ylogx, negative));
}
