import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chunkedDiscountedReturns } from "./chunkedScan";
import { maxAbsError, scaleOf } from "./errorMetrics";
import { outputErrorBounds } from "./outputBounds";
import { serialDiscountedReturns } from "./serialScan";

/** A random batch: B rows, T tokens, float32-representable rewards, any chunk size up to T + 8. */
const scanInputs = fc
  .record({ B: fc.integer({ min: 1, max: 4 }), T: fc.integer({ min: 0, max: 300 }) })
  .chain(({ B, T }) =>
    fc.record({
      B: fc.constant(B),
      T: fc.constant(T),
      chunkSize: fc.integer({ min: 1, max: T + 8 }),
      discount: fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0, 0.5, 0.99, 0.999, 1)),
      // Subnormal rewards included: the bound has an absolute part for the range where float32
      // has fewer than 24 bits (a 1.4e-45 reward times 0.99 rounds to 1.4e-45 or 0).
      rewards: fc.array(fc.float({ min: -100, max: 100, noNaN: true, noDefaultInfinity: true }), {
        minLength: B * T,
        maxLength: B * T,
      }),
    }),
  );

// A fixed seed keeps CI reproducible; SCANLAB_FC_SEED=<n> explores other draws locally.
const seed = Number(process.env.SCANLAB_FC_SEED ?? 20261129);
fc.configureGlobal({ seed });

describe("chunked equals serial for any B, T, C and discount in [0, 1]", () => {
  for (const precision of ["float64", "float32"] as const) {
    it(`in ${precision}, every element within its error bound against the float64 truth`, () => {
      fc.assert(
        fc.property(scanInputs, ({ B, T, chunkSize, discount, rewards }) => {
          const truth = serialDiscountedReturns({ rows: B, cols: T, data: Float64Array.from(rewards) }, discount).data;
          const data = precision === "float32" ? Float32Array.from(rewards) : Float64Array.from(rewards);
          const chunked = chunkedDiscountedReturns({ rows: B, cols: T, data }, discount, { chunkSize }).returns.data;
          const problem = { kind: "discounted" as const, rewards: { rows: B, cols: T, data }, discount, chunkSize };
          const bounds = outputErrorBounds(problem, { precision, algorithm: "chunked" });
          if (bounds.kind !== "discounted") throw new Error("expected returns bounds");
          for (let i = 0; i < truth.length; i++) {
            expect(Math.abs(chunked[i] - truth[i])).toBeLessThanOrEqual(bounds.returns[i]);
          }
        }),
        { numRuns: 300 },
      );
    });
  }

  it("every chunk size from 1 to T + 1 gives the same float64 returns on one row", () => {
    const rewards = Float64Array.from({ length: 70 }, (_, t) => Math.fround(Math.sin(t) * 3));
    const batch = { rows: 1, cols: rewards.length, data: rewards };
    const truth = serialDiscountedReturns(batch, 0.97).data;
    for (let chunkSize = 1; chunkSize <= rewards.length + 1; chunkSize++) {
      const chunked = chunkedDiscountedReturns(batch, 0.97, { chunkSize }).returns.data;
      expect(maxAbsError(chunked, truth)).toBeLessThanOrEqual(1e-12 * scaleOf(truth));
    }
  });
});
