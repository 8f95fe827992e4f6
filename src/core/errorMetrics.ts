/** Largest |a[i] − b[i]|; NaN when either side has a NaN there, so a broken result never passes. */
export function maxAbsError(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Number.NaN;
  let max = 0;
  for (let i = 0; i < a.length; i++) {
    const e = Math.abs(a[i] - b[i]);
    if (!(e <= max)) max = e; // also catches NaN, which then sticks
    if (Number.isNaN(max)) return max;
  }
  return max;
}

/** Largest |x[i]| (0 for an empty array). */
export function maxAbs(x: ArrayLike<number>): number {
  let max = 0;
  for (let i = 0; i < x.length; i++) max = Math.max(max, Math.abs(x[i]));
  return max;
}

/** Number of positions where a and b differ as float32 values (bit-exactness; −0 equals +0). */
export function countMismatches(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Math.max(a.length, b.length);
  let n = 0;
  for (let i = 0; i < a.length; i++) if (Math.fround(a[i]) !== Math.fround(b[i])) n++;
  return n;
}

/** The spacing of float32 numbers at magnitude |x| (unit in the last place). */
export function ulp32(x: number): number {
  const a = Math.abs(Math.fround(x));
  if (a < 2 ** -126) return 2 ** -149;
  return 2 ** (Math.floor(Math.log2(a)) - 23);
}

/**
 * The cases README's uniform absolute tolerance, for data without a golden `tolerance`:
 * float64 `1e-9·scale`, float32 `2e-6·scale·max(1, √T/16)`, where scale is the largest magnitude
 * among inputs and expected outputs and T the (longest) row length.
 */
export function uniformTolerance(precision: "float32" | "float64", scale: number, T: number): number {
  return precision === "float64" ? 1e-9 * scale : 2e-6 * scale * Math.max(1, Math.sqrt(T) / 16);
}

/** The largest magnitude among several arrays: the `scale` of the tolerance rule. */
export function scaleOf(...arrays: ArrayLike<number>[]): number {
  return arrays.reduce<number>((max, values) => Math.max(max, maxAbs(values)), 0);
}
