/**
 * The verdict on one field of one sample: every value within its own bound of the float64
 * reference. A NaN or ±Inf where the reference is finite is a failure; where the reference itself
 * is not finite (non-finite inputs), the value must be the same kind of non-finite.
 */
export interface FieldVerdict {
  passed: boolean;
  /** The largest |value − reference| over the tokens (Infinity when a value is not finite). */
  maxGap: number;
  /** The token whose gap is the largest share of its bound (−1 for an empty field). */
  worstToken: number;
  /** Gap and bound at worstToken. */
  worstGap: number;
  worstBound: number;
  /** How many tokens lie outside their bound. */
  failures: number;
}

export function judgeField(
  values: ArrayLike<number>,
  reference: ArrayLike<number>,
  bounds: ArrayLike<number>,
): FieldVerdict {
  let maxGap = 0;
  let worstToken = -1;
  let worstRatio = -1;
  let failures = 0;
  if (values.length !== reference.length) {
    return {
      passed: false,
      maxGap: Number.POSITIVE_INFINITY,
      worstToken: -1,
      worstGap: Number.POSITIVE_INFINITY,
      worstBound: 0,
      failures: Math.max(values.length, reference.length),
    };
  }
  for (let t = 0; t < values.length; t++) {
    const v = values[t];
    const r = reference[t];
    let gap: number;
    if (!Number.isFinite(r))
      gap = Object.is(v, r) || (Number.isNaN(v) && Number.isNaN(r)) ? 0 : Number.POSITIVE_INFINITY;
    else gap = Number.isFinite(v) ? Math.abs(v - r) : Number.POSITIVE_INFINITY;
    const ok = gap <= bounds[t];
    if (!ok) failures += 1;
    const ratio = ok ? gap / (bounds[t] || Number.MIN_VALUE) : Number.POSITIVE_INFINITY;
    if (gap > maxGap) maxGap = gap;
    if (ratio > worstRatio) {
      worstRatio = ratio;
      worstToken = t;
    }
  }
  return {
    passed: failures === 0,
    maxGap,
    worstToken,
    worstGap: worstToken < 0 ? 0 : Math.abs(values[worstToken] - reference[worstToken]),
    worstBound: worstToken < 0 ? 0 : bounds[worstToken],
    failures,
  };
}
