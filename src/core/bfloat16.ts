/**
 * x rounded to bfloat16 (8 significant bits, float32's exponent range), returned as a float64.
 * Goes through float32 first, then rounds to nearest-even on the float32 bits: that is how torch
 * casts to bfloat16 (c10's round_to_nearest_even), and every value a float32 run holds is a float32.
 */
export function roundToBfloat16(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  bits[0] = Math.fround(x);
  const u = words[0];
  const rounded = (u + 0x7fff + ((u >>> 16) & 1)) >>> 0;
  words[0] = (rounded & 0xffff0000) >>> 0;
  return bits[0];
}

const bits = new Float32Array(1);
const words = new Uint32Array(bits.buffer);

/** bfloat16's unit roundoff: a rounded value is within 2^-8 of x, relatively. */
export const BFLOAT16_UNIT_ROUNDOFF = 2 ** -8;
