import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { carryPlace, carrySplit } from "./carrySplit";
import { chunkedDiscountedReturns } from "./chunkedScan";
import { scanErrorBound } from "./errorBound";
import { serialDiscountedReturns } from "./serialScan";
import { normals, seededRandom } from "./testRandom";
import { allowingNonFinite } from "./validation";

/** The float64 serial loop of one row: the truth the split's total is held to. */
function serial(row: ArrayLike<number>, d: number): Float64Array {
  const data = Float64Array.from(row);
  return allowingNonFinite(() => serialDiscountedReturns({ rows: 1, cols: data.length, data }, d).data);
}

/** The float64 chunked bound of a row against the float64 serial loop (errorBound.ts; the playground's note). */
function bound(row: ArrayLike<number>, d: number, C: number): Float64Array {
  const magnitudes = Float64Array.from(row, Math.abs);
  return scanErrorBound({ magnitudes }, d, {
    precision: "float64",
    algorithm: "chunked",
    chunkSize: C,
    inputRoundings: 0,
  });
}

/** Every token: local + carried is total bit for bit, total is the float64 chunked scan's, and within the bound of serial. */
function expectSound(row: ArrayLike<number>, d: number, C: number, truth = serial(row, d)) {
  const split = carrySplit(row, d, C);
  const data = Float64Array.from(row);
  const chunked = chunkedDiscountedReturns({ rows: 1, cols: data.length, data }, d, { chunkSize: C }).returns.data;
  const limit = bound(row, d, C);
  // Collected, then checked once: an expect per token is most of the time of a 1000-token case.
  const wrong: string[] = [];
  for (let t = 0; t < data.length; t++) {
    if (!Object.is(split.local[t] + split.carried[t], split.total[t])) wrong.push(`t ${t}: local + carried ≠ total`);
    if (!Object.is(split.total[t], chunked[t])) wrong.push(`t ${t}: total ≠ chunked float64`);
    if (!(Math.abs(split.total[t] - truth[t]) <= limit[t])) wrong.push(`t ${t}: over the bound`);
  }
  expect(wrong).toEqual([]);
  return split;
}

/** The sum over t's own chunk, u = t … its last token, as the algebra writes it (float64 serial order). */
function localByHand(row: ArrayLike<number>, d: number, C: number, t: number): number {
  const T = row.length;
  const end = T - 1 - carryPlace(T, C, t).chunk * C;
  let sum = 0;
  for (let u = end; u >= t; u--) sum = row[u] + d * sum;
  return sum;
}

describe("carrySplit: local sum and carry of every token", () => {
  it("splits the worked example of chunkedScan.test.ts (r = 1…5, d = 0.5, C = 2)", () => {
    const split = carrySplit([1, 2, 3, 4, 5], 0.5, 2);
    // Chunks in original time: {3, 4}, {1, 2}, {0}; carries 0, 6.5 (= G_3), 5.125 (= G_1).
    expect(Array.from(split.local)).toEqual([1, 3.5, 3, 6.5, 5]);
    expect(Array.from(split.carried)).toEqual([2.5625, 1.625, 3.25, 0, 0]);
    expect(Array.from(split.total)).toEqual([3.5625, 5.125, 6.25, 6.5, 5]);
    expect(Array.from(split.carriesIn)).toEqual([0, 6.5, 5.125]);
    expect(Array.from(split.carryPowers)).toEqual([0.5, 0.25]);
  });

  it("places tokens in slime's chunks: the short chunk holds the first tokens", () => {
    // T = 5, C = 2: t = 4, 3 in chunk 0; t = 2, 1 in chunk 1; t = 0 alone in chunk 2.
    expect([0, 1, 2, 3, 4].map((t) => carryPlace(5, 2, t))).toEqual([
      { chunk: 2, exponent: 1 },
      { chunk: 1, exponent: 2 },
      { chunk: 1, exponent: 1 },
      { chunk: 0, exponent: 2 },
      { chunk: 0, exponent: 1 },
    ]);
  });

  it("matches the float64 serial reference within the float64 chunked bound on seeded rows", () => {
    const random = seededRandom(29);
    for (const [T, C, d] of [
      [1000, 128, 0.99],
      [300, 8, 0.9],
      [129, 128, 0.999],
      [4096, 64, 0.999],
      [77, 5, 0.5],
    ]) {
      const row = normals(random, T);
      const split = expectSound(row, d, C);
      // The local part is the in-chunk sum, and the carried part d^(k+1)·s_c with s_c the return after the chunk.
      for (const t of [0, 1, Math.floor(T / 2), T - C - 1, T - 1].filter((t) => t >= 0)) {
        const { chunk, exponent } = carryPlace(T, C, t);
        expect(Math.abs(split.local[t] - localByHand(row, d, C, t))).toBeLessThanOrEqual(bound(row, d, C)[t]);
        const after = t + exponent;
        expect(split.carriesIn[chunk]).toBe(after < T ? split.total[after] : 0);
        expect(split.carried[t]).toBe(split.carriesIn[chunk] * d ** exponent);
      }
    }
  });

  it("reproduces the golden files' float64 `expected` (slime's serial loop) within the bound", () => {
    const file = JSON.parse(readFileSync(new URL("../../cases/public_cases.json", import.meta.url), "utf8")) as {
      cases: {
        kind: string;
        shape: [number, number];
        params: { discount: number; chunk_size: number };
        inputs: { rewards: number[] };
        expected?: { returns: number[] };
      }[];
    };
    const cases = file.cases.filter((c) => c.kind === "discounted" && c.expected);
    expect(cases.length).toBeGreaterThanOrEqual(20);
    for (const c of cases) {
      const [rows, cols] = c.shape;
      for (let b = 0; b < rows; b++) {
        const row = c.inputs.rewards.slice(b * cols, (b + 1) * cols);
        const truth = Float64Array.from(c.expected?.returns.slice(b * cols, (b + 1) * cols) ?? []);
        expectSound(row, c.params.discount, c.params.chunk_size, truth);
      }
    }
  });

  it("chunk size 1: every token is its own chunk, local = its reward, carried = d·G_{t+1}", () => {
    const row = normals(seededRandom(1), 50);
    const split = expectSound(row, 0.9, 1);
    for (let t = 0; t < 50; t++) {
      expect(split.local[t]).toBe(row[t]);
      expect(split.carried[t]).toBe(t + 1 < 50 ? 0.9 * split.total[t + 1] : 0);
    }
  });

  it("chunk size at or above the length: one chunk, nothing carried", () => {
    const row = normals(seededRandom(2), 40);
    for (const C of [40, 41, 4096]) {
      const split = expectSound(row, 0.97, C);
      expect(split.carriesIn).toEqual(Float64Array.of(0));
      expect(split.carried.every((v) => Object.is(v, 0))).toBe(true);
      expect(split.local).toEqual(split.total);
    }
  });

  it("γ = 1: the carry enters undiscounted, the same s_c at every token of a chunk", () => {
    const row = Float64Array.from({ length: 37 }, (_, t) => (t % 5) - 2);
    const split = expectSound(row, 1, 8);
    // Integers: every sum is exact, so the split is the serial loop's own numbers.
    expect(split.total).toEqual(serial(row, 1));
    for (let t = 0; t < 37; t++) expect(split.carried[t]).toBe(split.carriesIn[carryPlace(37, 8, t).chunk]);
  });

  it("γ = 0: slime's identity branch, G = r, nothing carried", () => {
    const row = normals(seededRandom(3), 30);
    const split = expectSound(row, 0, 4);
    expect(split.local).toEqual(row);
    expect(split.total).toEqual(row);
    expect(split.carried.every((v) => v === 0)).toBe(true);
  });

  it("masked and zero rewards: a reward on the last token reaches every earlier chunk only as carry", () => {
    // REINFORCE++ with kl_coef = 0: rewards 0 except the outcome on the last unmasked token, then padding.
    const row = new Float64Array(20);
    row[16] = 1;
    const split = expectSound(row, 0.5, 4);
    // Chunks {16…19}, {12…15}, …: the padding after t = 16 returns exactly 0.
    for (let t = 17; t < 20; t++) expect(Object.is(split.total[t], 0)).toBe(true);
    for (let t = 0; t < 16; t++) {
      expect(split.local[t]).toBe(0);
      expect(split.carried[t]).toBe(0.5 ** (16 - t));
    }
    const zeros = carrySplit(new Float64Array(9), 0.99, 4);
    expect([zeros.local, zeros.carried, zeros.total].every((a) => a.every((v) => Object.is(v, 0)))).toBe(true);
  });

  it("an empty row splits into nothing", () => {
    const split = carrySplit([], 0.99, 128);
    expect([split.local.length, split.carried.length, split.total.length, split.carriesIn.length]).toEqual([
      0, 0, 0, 0,
    ]);
  });

  it("non-finite rewards spread as in slime's scan (§b.4), not as in the serial loop", () => {
    // r[5] = ∞, T = 300, C = 128, d = 0.99: t ≤ 5 are ∞, t = 6 … 43 NaN (the rest of its chunk), 44 outputs in all.
    const row = normals(seededRandom(4), 300);
    row[5] = Number.POSITIVE_INFINITY;
    const split = carrySplit(row, 0.99, 128);
    const data = Float64Array.from(row);
    const chunked = allowingNonFinite(
      () => chunkedDiscountedReturns({ rows: 1, cols: 300, data }, 0.99, { chunkSize: 128 }).returns.data,
    );
    expect(split.total).toEqual(chunked);
    expect(split.total.filter((v) => !Number.isFinite(v)).length).toBe(44);
    expect(split.total[5]).toBe(Number.POSITIVE_INFINITY);
    expect(Number.isNaN(split.local[6])).toBe(true);
    // The poison sits in the first (short) chunk's local sums: nothing is carried out of it.
    expect(split.carried.slice(0, 44).every(Number.isFinite)).toBe(true);
    // A NaN in the last chunk is carried into every earlier one.
    row[5] = 0;
    row[200] = Number.NaN;
    const poisoned = carrySplit(row, 0.99, 128);
    expect(poisoned.total.every(Number.isNaN)).toBe(true);
    expect(poisoned.carried.slice(0, 172).every(Number.isNaN)).toBe(true);
    for (let t = 0; t < 300; t++) {
      expect(Object.is(poisoned.local[t] + poisoned.carried[t], poisoned.total[t])).toBe(true);
    }
  });

  it("refuses a discount or chunk size the scan refuses", () => {
    expect(() => carrySplit([1], Number.NaN, 4)).toThrow(/discount must be a finite number/);
    expect(() => carrySplit([1], 0.9, 0)).toThrow(/integer modulo by zero/);
  });
});
