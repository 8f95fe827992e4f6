/** How far one run's output is from the float64 reference, measured against each element's own bound. */
export interface RunCheck {
  maxAbsError: number;
  /** max |out − ref| / bound over the elements: ≤ 1 when every element is within its bound; NaN or ∞ when broken. */
  worstBoundFraction: number;
}

export function checkRun(out: ArrayLike<number>, reference: Float64Array, bound: Float64Array): RunCheck {
  if (out.length !== reference.length) return { maxAbsError: Number.NaN, worstBoundFraction: Number.POSITIVE_INFINITY };
  let maxAbsError = 0;
  let worst = 0;
  for (let i = 0; i < out.length; i++) {
    const e = Math.abs(out[i] - reference[i]);
    // A NaN fails both comparisons and sticks, so a broken output can never look correct.
    if (!(e <= maxAbsError)) maxAbsError = Number.isNaN(maxAbsError) ? maxAbsError : e;
    const f = e / bound[i];
    if (!(f <= worst)) worst = Number.isNaN(f) ? Number.POSITIVE_INFINITY : f;
  }
  return { maxAbsError, worstBoundFraction: worst };
}

/** Folds one run's check into the row's worst so far. */
export function worseOf(a: RunCheck | undefined, b: RunCheck): RunCheck {
  if (!a) return b;
  const maxAbsError =
    Number.isNaN(a.maxAbsError) || Number.isNaN(b.maxAbsError) ? Number.NaN : Math.max(a.maxAbsError, b.maxAbsError);
  return { maxAbsError, worstBoundFraction: Math.max(a.worstBoundFraction, b.worstBoundFraction) };
}
