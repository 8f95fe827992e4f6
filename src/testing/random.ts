/** Seeded random inputs for tests: reproducible, and float32-representable like the golden files. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  // mulberry32: tiny, fast and good enough to draw test data.
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** n standard normal draws (Box–Muller), each rounded to float32, optionally scaled. */
export function normals(random: () => number, n: number, scale = 1): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const u = 1 - random();
    const v = random();
    out[i] = Math.fround(scale * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v));
  }
  return out;
}

/** A 0/1 loss mask of length n with a masked prefix and a masked hole, and at least one 1 unless `empty`. */
export function maskWithHoles(random: () => number, n: number, empty = false): number[] {
  const mask = Array.from({ length: n }, () => (empty ? 0 : 1));
  if (empty || n < 4) return mask;
  const prefix = Math.floor(random() * Math.min(5, n / 4));
  for (let t = 0; t < prefix; t++) mask[t] = 0;
  const holeStart = prefix + Math.floor(random() * (n / 2));
  const holeEnd = Math.min(n - 1, holeStart + 1 + Math.floor(random() * (n / 4)));
  for (let t = holeStart; t < holeEnd; t++) mask[t] = 0;
  return mask;
}
