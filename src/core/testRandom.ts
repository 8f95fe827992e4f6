/** Seeded random inputs for tests and benchmarks (no product code uses them): reproducible, and float32-representable like the golden files. */
import { normal, seededRandom } from "./seededRandom";

export { seededRandom };

/** n standard normal draws (Box–Muller), each rounded to float32, optionally scaled. */
export function normals(random: () => number, n: number, scale = 1): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    out[i] = Math.fround(scale * normal(random));
  }
  return out;
}

/**
 * A 0/1 loss mask of length n: a masked prefix, a masked hole in the middle (a tool output) and,
 * half the time, a masked last token; never fully masked, unless `fullyMasked`.
 */
export function maskWithHoles(random: () => number, n: number, fullyMasked = false): number[] {
  const mask = new Array<number>(n).fill(fullyMasked ? 0 : 1);
  if (fullyMasked) return mask;
  const prefix = Math.floor(random() * Math.min(5, n / 4));
  const holeStart = prefix + Math.floor(random() * (n / 2));
  const holeEnd = Math.min(n - 1, holeStart + 1 + Math.floor(random() * (n / 4)));
  for (let t = 0; t < n; t++) if (t < prefix || (t >= holeStart && t < holeEnd)) mask[t] = 0;
  mask[n - 1] = n > 1 && random() < 0.5 ? 0 : 1;
  if (!mask.includes(1)) mask[0] = 1;
  return mask;
}
