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

/** The largest magnitude among several arrays. */
export function scaleOf(...arrays: ArrayLike<number>[]): number {
  return arrays.reduce<number>((max, values) => Math.max(max, maxAbs(values)), 0);
}
