/**
 * A bound that is infinite or NaN (an ill-conditioned whitening, a reward of ±Inf) checks nothing:
 * the stored value is then held to the exact float64 one at this share of its field's scale, so no
 * verdict ever rests on a check that checks nothing. Where a check beside it asks (the whitening,
 * whose shared scalars the fit checks), a finite bound wider than this is held to it too.
 */
export const ACCURACY_THRESHOLD = 1e-3;

/**
 * The verdict on one field of one sample, two questions in one: is each value what slime's float32
 * code can compute (within its own bound of the float64 reference)? and is it accurate (its gap to
 * the exact value)? A NaN or ±Inf where the reference is finite is a failure; where the reference
 * itself is not finite (non-finite inputs), the value must be the same kind of non-finite.
 */
export interface FieldVerdict {
  passed: boolean;
  /** The largest |value − reference| over the tokens (Infinity when a value is not finite). */
  maxGap: number;
  /** The field's scale: the largest finite |reference| of the sample (gaps are read against it). */
  scale: number;
  /**
   * The token to look at: when the field fails, the failing token with the largest gap; else the
   * token closest to its tolerance (−1 for an empty field).
   */
  worstToken: number;
  /** Gap and tolerance at worstToken (the tolerance is the bound, or the accuracy threshold where the bound is wider). */
  worstGap: number;
  worstBound: number;
  /** How many tokens lie outside their tolerance. */
  failures: number;
  /** Tokens whose rigorous bound was infinite or NaN: held to the accuracy threshold instead. */
  unbounded: number;
  /** Tokens whose finite bound was wider than the accuracy threshold and held to it (holdWide). */
  wide: number;
  /** Why the field fails, in words, when the check behind the verdict says more than the gaps (null otherwise). */
  cause: string | null;
}

export interface JudgeOptions {
  /** The field's scale; by default the largest finite |reference| of the field. */
  scale?: number;
  /**
   * Hold finite bounds wider than the threshold to it as well. Only where a tighter check stands
   * beside the bound (the whitening fit): a scan's finite bound is wide only where float32 cannot do
   * better (values near 0 with a KL of 1e-8), and holding it there would fail what slime did right.
   */
  holdWide?: boolean;
  /** Tokens already found outside a tighter check (e.g. the whitening fit): counted as failures. */
  alsoFailing?: Uint8Array;
  cause?: string | null;
  /**
   * Per token, a tolerance below which the threshold never goes: the error the value has whatever
   * slime's float32 did after its inputs (e.g. a whitening of raw advantages that float32 holds only
   * to 1e-3: the float64 whitening of them is no closer). Only where a tighter check stands beside it.
   */
  atLeast?: ArrayLike<number>;
}

export function judgeField(
  values: ArrayLike<number>,
  reference: ArrayLike<number>,
  bounds: ArrayLike<number>,
  options: JudgeOptions = {},
): FieldVerdict {
  if (values.length !== reference.length) {
    return {
      passed: false,
      maxGap: Number.POSITIVE_INFINITY,
      scale: 0,
      worstToken: -1,
      worstGap: Number.POSITIVE_INFINITY,
      worstBound: 0,
      failures: Math.max(values.length, reference.length),
      unbounded: 0,
      wide: 0,
      cause: `${values.length} values stored, ${reference.length} expected`,
    };
  }
  const scale = options.scale ?? fieldScale(reference);
  const threshold = ACCURACY_THRESHOLD * scale;
  let maxGap = 0;
  let failures = 0;
  let unbounded = 0;
  let wide = 0;
  let worstPass = -1;
  let worstPassRatio = -1;
  let worstFail = -1;
  let worstFailGap = -1;
  let worstPassTolerance = 0;
  let worstFailTolerance = 0;
  for (let t = 0; t < values.length; t++) {
    const v = values[t];
    const r = reference[t];
    const b = bounds[t];
    let tolerance = b;
    const finite = Number.isFinite(b);
    if (!finite || (options.holdWide && b > threshold)) {
      if (finite) wide += 1;
      else unbounded += 1;
      tolerance = options.atLeast ? Math.max(threshold, options.atLeast[t]) : threshold;
    }
    let gap: number;
    if (!Number.isFinite(r))
      gap = Object.is(v, r) || (Number.isNaN(v) && Number.isNaN(r)) ? 0 : Number.POSITIVE_INFINITY;
    else gap = Number.isFinite(v) ? Math.abs(v - r) : Number.POSITIVE_INFINITY;
    if (gap > maxGap) maxGap = gap;
    const ok = gap <= tolerance && !options.alsoFailing?.[t];
    if (!ok) {
      failures += 1;
      if (gap > worstFailGap) {
        worstFailGap = gap;
        worstFail = t;
        worstFailTolerance = tolerance;
      }
    } else {
      const ratio = gap === 0 ? 0 : gap / tolerance;
      if (ratio > worstPassRatio) {
        worstPassRatio = ratio;
        worstPass = t;
        worstPassTolerance = tolerance;
      }
    }
  }
  const worstToken = failures > 0 ? worstFail : worstPass;
  return {
    passed: failures === 0,
    maxGap,
    scale,
    worstToken,
    worstGap: worstToken < 0 ? 0 : gapAt(values[worstToken], reference[worstToken]),
    worstBound: worstToken < 0 ? 0 : failures > 0 ? worstFailTolerance : worstPassTolerance,
    failures,
    unbounded,
    wide,
    cause: failures > 0 ? (options.cause ?? null) : null,
  };
}

/** The largest finite |x| of a field: the scale its gaps and the accuracy threshold are read against. */
export function fieldScale(reference: ArrayLike<number>): number {
  let scale = 0;
  for (let t = 0; t < reference.length; t++) {
    const a = Math.abs(reference[t]);
    if (a > scale && Number.isFinite(a)) scale = a;
  }
  return scale;
}

function gapAt(v: number, r: number): number {
  if (!Number.isFinite(r))
    return Object.is(v, r) || (Number.isNaN(v) && Number.isNaN(r)) ? 0 : Number.POSITIVE_INFINITY;
  return Number.isFinite(v) ? Math.abs(v - r) : Number.POSITIVE_INFINITY;
}

/**
 * How much a sample's verdict asks to be looked at, for ordering a table worst first: failing
 * samples before passing ones, then by the largest gap as a share of the field's scale (a sample
 * whose bound underflowed never outranks one whose gap is 10⁴× larger), then by the closest call.
 */
export function sampleSeverity(fields: (FieldVerdict | null)[]): [number, number, number] {
  let failed = 0;
  let relative = 0;
  let closest = 0;
  for (const f of fields) {
    if (!f) continue;
    if (!f.passed) failed = 1;
    const rel = f.maxGap === 0 ? 0 : f.maxGap / (f.scale || Number.MIN_VALUE);
    if (rel > relative || Number.isNaN(rel)) relative = Number.isNaN(rel) ? Number.POSITIVE_INFINITY : rel;
    const call = f.worstGap === 0 ? 0 : f.worstGap / (f.worstBound || Number.MIN_VALUE);
    if (call > closest) closest = call;
  }
  return [failed, relative, closest];
}

/** Compare two severities for a worst-first sort. */
export function bySeverity(a: [number, number, number], b: [number, number, number]): number {
  for (let k = 0; k < 3; k++) if (a[k] !== b[k]) return a[k] < b[k] ? 1 : -1;
  return 0;
}
