import { fma32 } from "./exactFma";

/**
 * SLEEF 3.5.1's `xpowf` (src/libm/sleefsimdsp.c), the u10 float32 pow, as compiled with
 * ENABLE_FMA_SP: the AVX2 build `Sleef_powf8_u10avx2` that torch's `Vectorized<float>::pow`
 * calls on an AVX2 CPU (and the scalar `Sleef_powf1_u10purecfma`, the same arithmetic).
 * Debian's torch 1.13 links Debian's libsleef3 3.5.1.
 *
 * Every float32 operation is a double operation rounded with Math.fround (exact for + − × ÷ of
 * float32 operands: a double has more than 2·24 + 2 bits), every `vmla`/`vfma…` a true fused
 * multiply-add (`fma32`). Comments name the SLEEF helper each line stands for.
 */

const f = Math.fround;
const fBits = new Float32Array(1);
const iBits = new Int32Array(fBits.buffer);

function bitsOf(x: number): number {
  fBits[0] = x;
  return iBits[0];
}

function fromBits(i: number): number {
  iBits[0] = i;
  return fBits[0];
}

/** A double-float: the unevaluated sum x + y of two float32 numbers (SLEEF's vfloat2). */
interface DF {
  x: number;
  y: number;
}

const FLT_MIN = 2 ** -126;
const R_4_3 = f(1 / 0.75);
const L2U = f(0.693145751953125);
const L2L = f(1.428606765330187e-6);
// R_LN2f, 1.442695040888963407359924681001892137…f in SLEEF: the double Math.LOG2E, rounded.
const R_LN2 = f(Math.LOG2E);

// dfadd2_vf2_vf_vf
function add2FF(x: number, y: number): DF {
  const s = f(x + y);
  const v = f(s - x);
  return { x: s, y: f(f(x - f(s - v)) + f(y - v)) };
}

// dfadd_vf2_vf2_vf2 (|x| ≥ |y|)
function addDD(x: DF, y: DF): DF {
  const s = f(x.x + y.x);
  return { x: s, y: f(f(f(f(x.x - s) + y.x) + x.y) + y.y) };
}

// dfadd2_vf2_vf2_vf2
function add2DD(x: DF, y: DF): DF {
  const s = f(x.x + y.x);
  const v = f(s - x.x);
  const t = f(f(x.x - f(s - v)) + f(y.x - v));
  return { x: s, y: f(t + f(x.y + y.y)) };
}

// dfadd2_vf2_vf2_vf
function add2DF(x: DF, y: number): DF {
  const s = f(x.x + y);
  const v = f(s - x.x);
  const t = f(f(x.x - f(s - v)) + f(y - v));
  return { x: s, y: f(t + x.y) };
}

// dfadd_vf2_vf_vf2
function addFD(x: number, y: DF): DF {
  const s = f(x + y.x);
  return { x: s, y: f(f(f(x - s) + y.x) + y.y) };
}

// dfnormalize_vf2_vf2
function normalize(t: DF): DF {
  const s = f(t.x + t.y);
  return { x: s, y: f(f(t.x - s) + t.y) };
}

// dfscale_vf2_vf2_vf
function scale(d: DF, s: number): DF {
  return { x: f(d.x * s), y: f(d.y * s) };
}

// dfmul_vf2_vf2_vf (FMA): s = x.x·y, error by vfmapn (x·y − z), then + x.y·y
function mulDF(x: DF, y: number): DF {
  const s = f(x.x * y);
  return { x: s, y: fma32(x.y, y, fma32(x.x, y, -s)) };
}

// dfmul_vf2_vf2_vf2 (FMA)
function mulDD(x: DF, y: DF): DF {
  const s = f(x.x * y.x);
  return { x: s, y: fma32(x.x, y.y, fma32(x.y, y.x, fma32(x.x, y.x, -s))) };
}

// dfsqu_vf2_vf2 (FMA)
function squ(x: DF): DF {
  const s = f(x.x * x.x);
  return { x: s, y: fma32(f(x.x + x.x), x.y, fma32(x.x, x.x, -s)) };
}

// dfdiv_vf2_vf2_vf2 (FMA): vfmanp(x, y, z) = −x·y + z
function divDD(n: DF, d: DF): DF {
  const t = f(1 / d.x);
  const s = f(n.x * t);
  const u = fma32(t, n.x, -s);
  const v = fma32(-d.y, t, fma32(-d.x, t, 1));
  return { x: s, y: fma32(s, v, fma32(n.y, t, u)) };
}

// logkf: log(d) as a double-float, d > 0 (the non-AVX512 branch)
function logk(dIn: number): DF {
  let d = dIn;
  const o = d < FLT_MIN;
  if (o) d = f(d * f(2 ** 32 * 2 ** 32));
  // vilogb2k_vi2_vf: the biased exponent field minus 127
  let e = ((bitsOf(f(d * R_4_3)) >>> 23) & 0xff) - 0x7f;
  // vldexp3_vf_vf_vi2: add −e to the exponent field
  const m = fromBits((bitsOf(d) + ((-e << 23) | 0)) | 0);
  if (o) e -= 64;

  const x = divDD(add2FF(-1, m), add2FF(1, m));
  const x2 = squ(x);

  let t = f(0.2403203547000885);
  t = fma32(t, x2.x, f(0.2851126790046692));
  t = fma32(t, x2.x, f(0.4000079929828644));
  const c: DF = { x: f(0.6666666269302368), y: f(3.6918386125961433e-9) };

  let s = mulDF({ x: f(0.6931471824645996), y: f(-1.904654323148236e-9) }, f(e));
  s = addDD(s, scale(x, 2));
  s = addDD(s, mulDD(mulDD(x2, x), add2DD(mulDF(x2, t), c)));
  return s;
}

// vldexp_vf_vf_vi2: x·2^q in float32 steps that cannot overflow early
function ldexpk(xIn: number, qIn: number): number {
  let q = qIn | 0;
  let m = q >> 31;
  m = ((((m + q) >> 6) - m) << 4) | 0;
  q = (q - (m << 2)) | 0;
  m = (m + 0x7f) | 0;
  m = Math.min(Math.max(m, 0), 0xff);
  let u = fromBits(m << 23);
  const x = f(f(f(f(xIn * u) * u) * u) * u);
  u = fromBits(((q + 0x7f) << 23) | 0);
  return f(x * u);
}

// vrint_vi2_vf (cvtps2dq, round to nearest even)
function rintToEven(x: number): number {
  const r = Math.round(x);
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

// expkf: exp of a double-float
function expk(d: DF): number {
  let u = f(f(d.x + d.y) * R_LN2);
  const q = rintToEven(u);
  let s = add2DF(d, f(q * -L2U));
  s = add2DF(s, f(q * -L2L));
  s = normalize(s);

  u = f(0.0013632464688271284);
  u = fma32(u, s.x, f(0.00836596917361021));
  u = fma32(u, s.x, f(0.04167108237743378));
  u = fma32(u, s.x, f(0.16666552424430847));
  u = fma32(u, s.x, f(0.49999985098838806));

  let t = addDD(s, mulDF(squ(s), u));
  t = addFD(1, t);
  u = f(t.x + t.y);
  u = ldexpk(u, q);
  // vandnot(d.x < −104): flush to +0
  return d.x < -104 ? 0 : u;
}

/** Is the float32 y an integer (or so large that it must be one)? */
function isIntegral(y: number): boolean {
  return Math.trunc(y) === y || Math.abs(y) > 2 ** 24;
}

/** SLEEF's powf u10 with FMA for float32 x and y, special cases as xpowf orders them. */
export function sleefPowf(x: number, y: number): number {
  const yIsInt = isIntegral(y);
  // vtruncate_vi2_vf & 1, only below 2^24
  const yIsOdd = yIsInt && Math.abs(y) < 2 ** 24 && (Math.trunc(y) & 1) === 1;

  let result = expk(mulDF(logk(Math.abs(x)), y));
  if (Number.isNaN(result)) result = Number.POSITIVE_INFINITY;
  result = f(result * (x > 0 ? 1 : yIsInt ? (yIsOdd ? -1 : 1) : Number.NaN));

  const efx = Math.abs(x) - 1 === 0 ? 0 : Math.sign(y) * (f(Math.abs(x) - 1) < 0 ? -1 : 1);
  if (!Number.isFinite(y) && !Number.isNaN(y)) {
    result = efx < 0 ? 0 : efx === 0 ? 1 : Number.POSITIVE_INFINITY;
  }
  if (!Number.isFinite(x) && !Number.isNaN(x)) {
    const base = (x === 0 ? -y : y) < 0 ? 0 : Number.POSITIVE_INFINITY;
    result = (yIsOdd ? Math.sign(x) : 1) * base;
  } else if (x === 0) {
    const base = (x === 0 ? -y : y) < 0 ? 0 : Number.POSITIVE_INFINITY;
    result = (yIsOdd ? (Object.is(x, -0) ? -1 : 1) : 1) * base;
  }
  if (Number.isNaN(x) || Number.isNaN(y)) result = Number.NaN;
  if (y === 0 || x === 1) result = 1;
  return result;
}
