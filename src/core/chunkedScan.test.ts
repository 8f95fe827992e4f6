import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ScanScratch } from "./batch";
import { chunkedDiscountedReturns, chunkLayout } from "./chunkedScan";
import { chunkedGae } from "./gae";
import { allowingNonFinite } from "./validation";

describe("chunk layout and trace", () => {
  it("pads the reversed row so the partial chunk holds the start of the sequence", () => {
    expect(chunkLayout(129, 128)).toEqual({ chunkSize: 128, nChunks: 2, pad: 127 });
    expect(chunkLayout(128, 128)).toEqual({ chunkSize: 128, nChunks: 1, pad: 0 });
    expect(chunkLayout(1, 128)).toEqual({ chunkSize: 128, nChunks: 1, pad: 127 });
    expect(chunkLayout(5, 1)).toEqual({ chunkSize: 1, nChunks: 5, pad: 0 });
    expect(chunkLayout(0, 4)).toEqual({ chunkSize: 4, nChunks: 0, pad: 0 });
  });

  it("records each chunk's local scan and the carry that entered it", () => {
    // r = [1, 2, 3, 4, 5], d = 0.5, C = 2: reversed x = [5, 4, 3, 2, 1], chunks [5,4] [3,2] [1,·].
    const rewards = { rows: 1, cols: 5, data: Float64Array.of(1, 2, 3, 4, 5) };
    const { returns, trace } = chunkedDiscountedReturns(rewards, 0.5, { chunkSize: 2 });
    expect(trace).toMatchObject({ chunkSize: 2, nChunks: 3, pad: 1 });
    expect(Array.from(trace.localScans)).toEqual([5, 6.5, 3, 3.5, 1, 0.5]);
    // Carry into chunk 1 is G at reversed index 1 = 6.5; into chunk 2 it is 3.5 + 0.25·6.5 = 5.125.
    expect(Array.from(trace.carriesIn)).toEqual([0, 6.5, 5.125]);
    expect(Array.from(returns.data)).toEqual([3.5625, 5.125, 6.25, 6.5, 5]);
  });
});

describe("chunks of padding", () => {
  /** slime's order written out with no shortcut: every chunk's C/2 multiply-adds, zeros included. */
  function everyChunk(row: Float32Array, kernelRow: ArrayLike<number>, carryPowers: ArrayLike<number>, C: number) {
    const T = row.length;
    const { nChunks } = chunkLayout(T, C);
    const x = new Float32Array(nChunks * C);
    for (let i = 0; i < T; i++) x[i] = row[T - 1 - i];
    const scanned = new Float32Array(nChunks * C);
    let carry = 0;
    for (let c = 0; c < nChunks; c++) {
      const valid = Math.min(C, T - c * C);
      for (let j = 0; j < valid; j++) {
        let acc = 0;
        for (let l = 0; l <= j; l++) acc = Math.fround(acc + Math.fround(x[c * C + l] * kernelRow[j - l]));
        scanned[c * C + j] = Math.fround(acc + Math.fround(carry * carryPowers[j]));
      }
      carry = scanned[c * C + valid - 1];
    }
    return Float32Array.from({ length: T }, (_, t) => scanned[T - 1 - t]);
  }

  it("a right-padded row's chunks of zeros give +0 exactly as the full scan does, and -0 is not skipped", () => {
    const C = 4;
    const kernelRow = Float32Array.of(1, 0.5, 0.25, 0.125);
    const carryPowers = Float32Array.of(0.5, 0.25, 0.125, 0.0625);
    const powTables = { kernelRow, carryPowers };
    const rows = [
      Float32Array.of(1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0),
      Float32Array.of(1, 2, 3, 0, 0, -0, 0, 0, 0, 0, 0),
      Float32Array.of(-1, 0, 0, 0, 0, 0, 0, 0, 0),
    ];
    for (const row of rows) {
      const { returns } = chunkedDiscountedReturns({ rows: 1, cols: row.length, data: row }, 0.5, {
        chunkSize: C,
        powTables,
      });
      const expected = everyChunk(row, kernelRow, carryPowers, C);
      // Object.is tells +0 from -0: the bits, not just the values, agree.
      expect(Array.from(returns.data).map((v, t) => Object.is(v, expected[t]))).toEqual(Array.from(row, () => true));
    }
  });

  it("a replayed power table with ∞ scans zeros too: 0·∞ is NaN, as torch's GEMM gives", () => {
    const row = Float32Array.of(1, 0, 0, 0, 0);
    const powTables = { kernelRow: Float32Array.of(1, Infinity), carryPowers: Float32Array.of(1, 1) };
    const { returns } = chunkedDiscountedReturns({ rows: 1, cols: 5, data: row }, 0.5, { chunkSize: 2, powTables });
    expect(Array.from(returns.data)).toEqual(
      Array.from(everyChunk(row, powTables.kernelRow, powTables.carryPowers, 2)),
    );
  });

  it("the local scan summed four outputs at a time is bit for bit each output summed alone", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 19 }),
        fc.array(fc.float({ min: -8, max: 8, noNaN: true }), { minLength: 1, maxLength: 90 }),
        fc.constantFrom(0.99, 0.5, 0.95, 1, 1.3),
        (C, values, d) => {
          const row = Float32Array.from(values);
          const kernelRow = Float32Array.from({ length: C }, (_, k) => Math.fround(d) ** k);
          const carryPowers = Float32Array.from({ length: C }, (_, k) => Math.fround(d) ** (k + 1));
          const { returns } = chunkedDiscountedReturns({ rows: 1, cols: row.length, data: row }, d, {
            chunkSize: C,
            powTables: { kernelRow, carryPowers },
          });
          const expected = everyChunk(row, kernelRow, carryPowers, C);
          expect(Array.from(returns.data).map((v, t) => Object.is(v, expected[t]))).toEqual(
            Array.from(row, () => true),
          );
        },
      ),
      { numRuns: 400 },
    );
  });

  it("with discount 1 the running sum is bit for bit the kernel's C/2 multiply-adds, NaN, ±∞ and −0 included", () => {
    // A kernel patch of value 1 changes no entry but sends the scan down localScan's general loop.
    const special = fc.constantFrom(Number.NaN, Infinity, -Infinity, -0, 0, 2 ** -149, 3e38);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 19 }),
        fc.array(fc.oneof(fc.float({ min: -8, max: 8, noNaN: true }), special), { minLength: 1, maxLength: 90 }),
        fc.boolean(),
        (C, values, float32) => {
          const data = float32 ? Float32Array.from(values) : Float64Array.from(values);
          const kernelRow = new Float32Array(C).fill(1);
          const carryPowers = new Float32Array(C).fill(1);
          const batch = { rows: 1, cols: data.length, data };
          const fast = allowingNonFinite(() =>
            chunkedDiscountedReturns(batch, 1, { chunkSize: C, powTables: { kernelRow, carryPowers } }),
          );
          const patched = { kernelRow, carryPowers, kernelPatches: [{ row: 0, col: C - 1, value: 1 }] };
          const general = allowingNonFinite(() =>
            chunkedDiscountedReturns(batch, 1, { chunkSize: C, powTables: patched }),
          );
          const same = (a: ArrayLike<number>, b: ArrayLike<number>) => Array.from(a, (v, i) => Object.is(v, b[i]));
          expect(same(fast.returns.data, general.returns.data)).toEqual(Array.from(data, () => true));
          expect(same(fast.trace.localScans, general.trace.localScans)).toEqual(
            Array.from(general.trace.localScans, () => true),
          );
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("scans lent a scratch", () => {
  it("give the fresh arrays' bits, row after row of other lengths and discounts, each array zeroed as lent", () => {
    const scratch = new ScanScratch();
    const row = fc.float32Array({ minLength: 0, maxLength: 300, min: -1e6, max: 1e6, noNaN: true });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(row, row, fc.constantFrom(1, 0.99, 0.5)), { minLength: 1, maxLength: 4 }),
        (rows) => {
          for (const [r, v, discount] of rows) {
            const cols = Math.min(r.length, v.length);
            const rewards = { rows: 1, cols, data: r.slice(0, cols) };
            const values = { rows: 1, cols, data: v.slice(0, cols) };
            const fresh = chunkedGae(rewards, values, discount, 0.95, { chunkSize: 8 });
            scratch.rewind();
            const lent = chunkedGae(rewards, values, discount, 0.95, { chunkSize: 8, zeros: scratch.zeros });
            for (const key of ["advantages", "returns", "deltas"] as const) {
              expect(lent[key].data).toBeInstanceOf(Float32Array);
              expect(Array.from(lent[key].data)).toEqual(Array.from(fresh[key].data));
            }
            expect(Array.from(lent.trace.localScans)).toEqual(Array.from(fresh.trace.localScans));
            expect(Array.from(lent.trace.carriesIn)).toEqual(Array.from(fresh.trace.carriesIn));
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
