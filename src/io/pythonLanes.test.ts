import fc from "fast-check";
import { unzlibSync } from "fflate";
import { describe, expect, it } from "vitest";
import { base64ToBytes } from "./float32Base64";
import { BOUND_BITS, boundBelow, laneWriter, pyFloat } from "./pythonLanes";

/** The float32 values of a `_unpack("…", shape)` expression. */
function unpacked(expression: string): Float32Array {
  const text = [...expression.matchAll(/"([A-Za-z0-9+/=]+)"/g)].map((m) => m[1]).join("");
  const bytes = unzlibSync(base64ToBytes(text) as Uint8Array);
  return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
}

describe("Python literals", () => {
  it("writes NaN and ±inf as Python reads them, and integers as floats", () => {
    expect(pyFloat(Number.NaN)).toBe('float("nan")');
    expect(pyFloat(Number.POSITIVE_INFINITY, true)).toBe('float("inf")');
    expect(pyFloat(Number.NEGATIVE_INFINITY)).toBe('-float("inf")');
    expect(pyFloat(3)).toBe("3.0");
    expect(pyFloat(Math.fround(0.1), true)).toBe("0.1");
    expect(pyFloat(1.5e38)).toBe("1.5e38");
  });
});

describe("a bound written smaller, never larger", () => {
  it("rounds down to a float32 with BOUND_BITS significant bits", () => {
    const positive = fc.double({ min: 2 ** -149, max: 3.4e38, noNaN: true });
    fc.assert(
      fc.property(positive, (x) => {
        const b = boundBelow(x);
        expect(b).toBeLessThanOrEqual(x);
        expect(Math.fround(b)).toBe(b);
        // Tighter by less than one step of the last kept bit (subnormals keep fewer bits).
        if (x >= 2 ** -126) expect(b).toBeGreaterThan(x * (1 - 2 ** (1 - BOUND_BITS)));
      }),
    );
    expect(boundBelow(0)).toBe(0);
    expect(boundBelow(Number.POSITIVE_INFINITY)).toBe(Number.POSITIVE_INFINITY);
    expect(Number.isNaN(boundBelow(Number.NaN))).toBe(true);
  });

  it("folds the float32 rounding of a large reference into its bound", () => {
    const n = 300;
    const element = fc.record({
      reference: fc.double({ min: -1e30, max: 1e30, noNaN: true }),
      // Scanlab's bounds are at least a few float32 roundings of the magnitudes.
      ulps: fc.double({ min: 4, max: 1e6, noNaN: true }),
    });
    fc.assert(
      fc.property(fc.array(element, { minLength: n, maxLength: n }), (elements) => {
        const reference = Float64Array.from(elements, (e) => e.reference);
        const bound = Float64Array.from(elements, (e) => e.ulps * 2 ** -24 * Math.abs(e.reference) + 1e-45);
        const [ref, limit] = laneWriter(256).checked(reference, bound, [n]);
        const writtenRef = unpacked(ref);
        const writtenBound = unpacked(limit);
        for (let i = 0; i < n; i++) {
          // Anything within the written bound of the written reference is within the bound of the reference.
          expect(writtenBound[i] + Math.abs(writtenRef[i] - reference[i])).toBeLessThanOrEqual(bound[i]);
        }
      }),
      { numRuns: 30 },
    );
  });

  it("writes a constant lane as torch.zeros or torch.full, −0 and NaN kept", () => {
    const lanes = laneWriter(4);
    expect(lanes.lane(new Float32Array(1000), [10, 100], "float32")).toBe(
      "torch.zeros((10, 100), dtype=torch.float32)",
    );
    expect(lanes.lane(new Array(9).fill(-0), [9], "float32")).toBe("torch.full((9,), -0.0, dtype=torch.float32)");
    expect(lanes.lane(new Array(9).fill(Number.NaN), [9], "reference")).toBe(
      'torch.full((9,), float("nan"), dtype=torch.float64)',
    );
    expect(lanes.usesBytes()).toBe(false);
  });
});
