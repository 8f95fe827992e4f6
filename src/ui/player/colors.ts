import { interpolatePurples, interpolateRdBu, interpolateViridis } from "d3-scale-chromatic";

/** The carry's accent: used for carries and nothing else. */
export const CARRY_COLOUR = "#d95f02";
/** The carry's hue darkened for text: #d95f02 is 3.8:1 on white, this 5.7:1 (WCAG AA asks 4.5:1). */
export const CARRY_TEXT_COLOUR = "#a84a02";
/** The discount matrix's one hue (also outlines the cells that feed the current value). */
export const MATRIX_COLOUR = "#6a51a3";
/** A cell NaN or ±Inf took, on every lane: no colour of a scale, so never read as a value or an error. */
export const NON_FINITE_FILL = "#000";

/**
 * Signed values on a diverging, colour-blind-safe scale symmetric about 0 (blue positive, red
 * negative); `extent` is the largest |value| of the lane group.
 */
export function signedFill(value: number, extent: number): string {
  if (!Number.isFinite(value)) return NON_FINITE_FILL;
  if (extent <= 0 || value === 0) return interpolateRdBu(0.5);
  const u = Math.max(-1, Math.min(1, value / extent));
  // Keep the ends readable: the darkest tenth of RdBu would hide the text on top.
  return interpolateRdBu(0.5 + 0.42 * u);
}

/** Dark text on light fills, light text on dark ones. */
export function textOn(value: number, extent: number): string {
  return extent > 0 && Math.abs(value) / extent > 0.7 ? "#fff" : "#111";
}

/** A power of the discount in [0, 1] on the matrix's single hue. */
export function powerFill(power: number): string {
  return interpolatePurples(0.08 + 0.55 * Math.max(0, Math.min(1, power)));
}

export interface Decades {
  lo: number;
  hi: number;
}

/** The decades the errors span, for the error lane's quantised log scale. */
export function errorDecades(errors: ArrayLike<number>): Decades | undefined {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < errors.length; i++) {
    const e = errors[i];
    if (!(e > 0) || !Number.isFinite(e)) continue;
    const d = Math.floor(Math.log10(e));
    lo = Math.min(lo, d);
    hi = Math.max(hi, d);
  }
  return lo <= hi ? { lo, hi } : undefined;
}

/** Exact zero has its own swatch; other errors are coloured by their decade (viridis). */
export const ZERO_ERROR_FILL = "#e5e7eb";

export function errorFill(error: number, decades: Decades | undefined): string {
  // Before the zero check: a NaN error is unmeasured, not "exactly 0" when every other error is.
  if (!Number.isFinite(error)) return NON_FINITE_FILL;
  if (error === 0 || !decades) return ZERO_ERROR_FILL;
  const d = Math.floor(Math.log10(error));
  const span = Math.max(1, decades.hi - decades.lo);
  return interpolateViridis(0.15 + (0.85 * (d - decades.lo)) / span);
}
