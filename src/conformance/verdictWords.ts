/**
 * The one glossary of verdict words (docs/verdicts.md), as every screen says them: the CLI's
 * table and help, the conformance view's column titles, the playground's summary and case
 * verdict, the player's captions. Change a word here and in docs/verdicts.md together.
 */
export const VERDICT_WORDS = {
  bound:
    "bound: the per-element error bound of docs/ERROR_BOUND.md, the most a correct implementation in this precision and algorithm can be off at that element",
  tolerance:
    "tolerance: what an element is held to, min(its bound, the case file's tolerance); 0 when bit-exact. An element passes when |computed − expected| ≤ its tolerance",
  maxAbsError: "max abs error: the largest |computed − expected| over every compared element",
  toleranceAtMaxError:
    "tolerance there: the tolerance of the element with the max abs error, so a pass always has max abs error ≤ tolerance there",
  worstFraction:
    "worst error / tolerance: the largest error as a fraction of its own element's tolerance (a pass is at most 1; 0.25 is a pass with 4× margin)",
  worstElement:
    "at: the element with the worst error / tolerance, as the case file spells it (returns[17], returns[1][5])",
  overBound:
    "over bound: elements whose |computed − reference| is above their bound; a NaN or ±Inf result where the reference is finite is over its bound",
  lost: "lost: elements where the reference itself is NaN or ±Inf: no error can be measured there, so they are counted apart, never as within",
  ulp: "ulps: how many representable numbers of the computed side's precision lie between the result and the reference",
  relError: "rel error: |computed − reference| / max(|reference|, one epsilon of the batch's largest magnitude)",
  bitExact: "bit-exact: the same float32 bits as slime's own output (chunked_float32), tolerance 0",
} as const;
