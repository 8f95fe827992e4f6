import { interpolateViridis } from "d3-scale-chromatic";

/**
 * A log10 colour scale quantised by decade: every value in [10^k, 10^(k+1)) gets the same viridis
 * swatch, so a colour reads as an order of magnitude. Exact zero, non-finite values, padding and
 * masked cells have colours of their own outside the ramp.
 */

export type Rgb = readonly [number, number, number];

/** Exact zero: chunked equals serial. Lighter than any viridis swatch. */
export const ZERO_COLOUR: Rgb = [255, 255, 255];
/** NaN or infinite error: Okabe–Ito vermillion, a hue viridis never reaches. */
export const NON_FINITE_COLOUR: Rgb = [213, 94, 0];
/** Padding beyond a row's length. */
export const PADDING_COLOUR: Rgb = [156, 163, 175];

/** Decades shown at most; smaller values share the lowest swatch (its label says "≤"). */
export const MAX_DECADES = 10;

export interface DecadeScale {
  /** Exponent of the lowest swatch's lower edge. */
  lo: number;
  /** Exponent of the highest swatch's upper edge (hi − lo swatches). */
  hi: number;
  /** True when values below 10^lo exist and are drawn in the lowest swatch. */
  clippedBelow: boolean;
  /** One colour per decade, lowest first. */
  swatches: Rgb[];
  /** Inner swatch edges 10^(lo+1) … 10^(hi−1): a value's swatch is how many it reaches. */
  edges: number[];
}

/** floor(log10(v)) for v > 0, corrected where Math.log10 rounds across a power of ten. */
export function decadeOf(v: number): number {
  let k = Math.floor(Math.log10(v));
  if (10 ** (k + 1) <= v) k++;
  else if (10 ** k > v) k--;
  return k;
}

function hexToRgb(hex: string): Rgb {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** The scale covering [min, max] (smallest positive and largest finite value drawn). */
export function decadeScale(min: number, max: number): DecadeScale {
  if (!(max > 0))
    return { lo: 0, hi: 1, clippedBelow: false, swatches: [hexToRgb(interpolateViridis(0.5))], edges: [] };
  const hi = decadeOf(max) + 1;
  const lowest = decadeOf(min > 0 ? min : max);
  const lo = Math.max(lowest, hi - MAX_DECADES);
  const n = hi - lo;
  // Sample the ramp inside its ends: viridis' darkest purple is close to black text and outlines.
  const swatches = Array.from({ length: n }, (_, i) =>
    hexToRgb(interpolateViridis(n === 1 ? 0.5 : 0.08 + (0.92 * i) / (n - 1))),
  );
  const edges = Array.from({ length: n - 1 }, (_, i) => 10 ** (lo + 1 + i));
  return { lo, hi, clippedBelow: lowest < lo, swatches, edges };
}

/** Colour of a finite, non-negative value. */
export function colourOf(scale: DecadeScale, v: number): Rgb {
  return v === 0 ? ZERO_COLOUR : scale.swatches[swatchIndex(scale, v)];
}

/** Index of a positive value's swatch (values under the lowest edge share swatch 0). */
export function swatchIndex(scale: DecadeScale, v: number): number {
  const { edges } = scale;
  let k = 0;
  while (k < edges.length && v >= edges[k]) k++;
  return k;
}

const SUPERSCRIPT: Record<string, string> = {
  "-": "⁻",
  "0": "⁰",
  "1": "¹",
  "2": "²",
  "3": "³",
  "4": "⁴",
  "5": "⁵",
  "6": "⁶",
  "7": "⁷",
  "8": "⁸",
  "9": "⁹",
};

/** 10^k as a short label: "1", "10", "100", "1000", else "10⁻⁷" style. */
export function decadeLabel(k: number): string {
  if (k >= 0 && k <= 3) return String(10 ** k);
  return `10${Array.from(String(k), (c) => SUPERSCRIPT[c] ?? c).join("")}`;
}

export function rgbCss(c: Rgb): string {
  return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
}
