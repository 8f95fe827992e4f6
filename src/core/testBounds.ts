/** For tests (no product code uses it): the largest error of `actual` as a fraction of its per-element bound. */
export function boundFraction(actual: ArrayLike<number>, truth: ArrayLike<number>, bound: ArrayLike<number>): number {
  if (actual.length !== truth.length) return Number.POSITIVE_INFINITY;
  let worst = 0;
  for (let i = 0; i < truth.length; i++) {
    const error = Math.abs(actual[i] - truth[i]);
    const fraction = error === 0 ? 0 : error / bound[i];
    if (!(fraction <= worst)) worst = fraction; // NaN sticks
  }
  return worst;
}
