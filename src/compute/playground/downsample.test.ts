import { describe, expect, it } from "vitest";
import { DOWNSAMPLE_ABOVE, envelopeIndices } from "./downsample";

function noise(n: number, seed: number): Float64Array {
  const out = new Float64Array(n);
  let s = seed;
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    out[i] = s / 2 ** 31 - 0.5;
  }
  return out;
}

describe("envelopeIndices", () => {
  it("draws every point of a short series", () => {
    const idx = envelopeIndices(noise(DOWNSAMPLE_ABOVE, 1), DOWNSAMPLE_ABOVE, 300);
    expect(idx).toHaveLength(DOWNSAMPLE_ABOVE);
  });

  it("keeps a single spike and both ends, at about two points per bucket", () => {
    const n = 8192;
    const values = noise(n, 7).map((v) => v * 1e-3);
    values[4321] = 5;
    values[77] = -5;
    const idx = Array.from(envelopeIndices(values, n, 600));
    expect(idx.length).toBeLessThanOrEqual(2 * 600 + 2);
    expect(idx.length).toBeGreaterThan(600);
    expect(idx).toContain(4321);
    expect(idx).toContain(77);
    expect(idx[0]).toBe(0);
    expect(idx.at(-1)).toBe(n - 1);
    expect(idx).toEqual([...idx].sort((a, b) => a - b));
  });

  it("keeps each bucket's extremes and every non-finite token", () => {
    const n = 5000;
    const a = noise(n, 3);
    a[1234] = 40;
    a[2500] = Number.NaN;
    a[2501] = Number.POSITIVE_INFINITY;
    const idx = Array.from(envelopeIndices(a, n, 400));
    expect(idx).toContain(1234);
    expect(idx).toContain(2500);
    expect(idx).toContain(2501);
    // The minimum and maximum of a bucket with no spike are kept too.
    const start = Math.floor((100 * n) / 400);
    const end = Math.floor((101 * n) / 400);
    const bucket = Array.from(a.subarray(start, end));
    expect(idx).toContain(start + bucket.indexOf(Math.max(...bucket)));
    expect(idx).toContain(start + bucket.indexOf(Math.min(...bucket)));
  });
});
