/**
 * The `segments` layout's arithmetic, replayed in float32 on the host (Math.fround after every
 * operation, as WGSL rounds without FMA), held to the serial loop's error bound: the float order
 * that docs/ERROR_BOUND.md ("The fused kernel") proves covered. The WGSL itself runs in
 * e2e/fused.spec.ts; this checks the algorithm over many more draws than a browser test can.
 */
import fc from "fast-check";
import { expect, it } from "vitest";
import { scanErrorBound, serialDiscountedReturns } from "../../core";
import { seededRandom } from "../../core/seededRandom";
import { SEGMENT_LANES } from "./fusedLayout";
import { scanUniforms } from "./fusedUniforms";

const f = Math.fround;

/** segmentsSource's two passes and carry loop, for one row, in float32. */
function segmentedRow(x: Float32Array, discount: number, segmentLength: number): Float32Array {
  const T = x.length;
  const [d, power] = scanUniforms({ layout: "segments", vec4: false, workgroupSize: 64, segmentLength }, discount).map(
    (u) => u.data[0],
  );
  const at = (i: number) => x[T - 1 - i];
  const carries = new Float32Array(SEGMENT_LANES);
  for (let lane = 0; lane < SEGMENT_LANES; lane++) {
    const start = Math.min(lane * segmentLength, T);
    const stop = Math.min(start + segmentLength, T);
    let s = 0;
    for (let i = start; i < stop; i++) s = f(at(i) + f(d * s));
    carries[lane] = s;
  }
  let carry = 0;
  for (let k = 0; k < SEGMENT_LANES; k++) {
    const end = carries[k];
    carries[k] = carry;
    carry = f(end + f(power * carry));
  }
  const out = new Float32Array(T);
  for (let lane = 0; lane < SEGMENT_LANES; lane++) {
    const start = Math.min(lane * segmentLength, T);
    const stop = Math.min(start + segmentLength, T);
    let g = carries[lane];
    for (let i = start; i < stop; i++) {
      g = f(at(i) + f(d * g));
      out[T - 1 - i] = g;
    }
  }
  return out;
}

it("keeps the segments layout within the serial loop's bound for any row, scale and discount in [0, 1]", () => {
  const rows = fc.record({
    T: fc.integer({ min: 1, max: 2000 }),
    scale: fc.constantFrom(1, 1e-30, 1e30, 3e-39),
    discount: fc.oneof(fc.constantFrom(0, 0.5, 0.99, 0.999, 1), fc.double({ min: 0, max: 1, noNaN: true })),
    seed: fc.integer(),
  });
  fc.assert(
    fc.property(rows, ({ T, scale, discount, seed }) => {
      const random = seededRandom(seed);
      const x = Float32Array.from({ length: T }, () => (random() * 2 - 1) * scale);
      const segmentLength = Math.max(1, Math.ceil(T / SEGMENT_LANES));
      const got = segmentedRow(x, discount, segmentLength);
      const truth = serialDiscountedReturns({ rows: 1, cols: T, data: Float64Array.from(x) }, discount).data;
      const bound = scanErrorBound({ magnitudes: x }, discount, {
        precision: "float32",
        algorithm: "serial",
        chunkSize: 1,
        inputRoundings: 1,
      });
      for (let t = 0; t < T; t++) {
        expect(Math.abs(got[t] - truth[t]), `t = ${t}`).toBeLessThanOrEqual(bound[t]);
      }
    }),
    { numRuns: 60, seed: Number(process.env.SCANLAB_FC_SEED ?? 8) },
  );
});
