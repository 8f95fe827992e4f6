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

/**
 * The cases README's uniform absolute tolerance, for data without a golden `tolerance`:
 * float64 `1e-9·scale`, float32 `2e-6·scale·max(1, √T/16)`, where scale is the largest magnitude
 * among inputs and expected outputs and T the (longest) row length.
 */
export function uniformTolerance(precision: "float32" | "float64", scale: number, T: number): number {
  if (precision === "float64") return 1e-9 * scale;
  // Among subnormals float32 has a fixed absolute spacing of 2^-149, which no relative rule can
  // go below: allow a few of those steps.
  return Math.max(2e-6 * scale * Math.max(1, Math.sqrt(T) / 16), 8 * 2 ** -149);
}

/** The largest magnitude among several arrays: the `scale` of the tolerance rule. */
export function scaleOf(...arrays: ArrayLike<number>[]): number {
  return arrays.reduce<number>((max, values) => Math.max(max, maxAbs(values)), 0);
}
