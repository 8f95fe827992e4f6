import { describe, expect, it } from "vitest";
import {
  absError,
  BoundVerdict,
  boundVerdict,
  cellErrors,
  cellLoss,
  cellLossText,
  relError,
  relFloor,
  ulpDistance,
} from "./cellErrors";

describe("ulpDistance", () => {
  it("counts float64 steps exactly, across zero and signs", () => {
    const next = (x: number) => x + Number.EPSILON * x; // 1 ulp above for x in [1, 2)
    expect(ulpDistance(1, next(1), "float64")).toBe(1);
    expect(ulpDistance(1, 1, "float64")).toBe(0);
    expect(ulpDistance(0, -0, "float64")).toBe(0);
    expect(ulpDistance(5e-324, -5e-324, "float64")).toBe(2);
    expect(ulpDistance(1, 2, "float64")).toBe(2 ** 52);
    // Finite values whose difference overflows still have a finite distance in steps.
    expect(ulpDistance(Number.MAX_VALUE, -Number.MAX_VALUE, "float64")).toBe(2 * (2 ** 63 - 2 ** 52 - 1));
  });

  it("agrees with a BigInt count on the bit patterns", () => {
    const view = new DataView(new ArrayBuffer(8));
    const ordered = (x: number) => {
      view.setFloat64(0, x);
      const bits = view.getBigInt64(0);
      return bits < 0n ? -(bits & 0x7fffffffffffffffn) : bits;
    };
    let seed = 12345;
    const random = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    for (let i = 0; i < 2000; i++) {
      const a = (random() - 0.5) * 10 ** Math.floor(random() * 20 - 10);
      const near = a + (random() - 0.5) * Math.abs(a) * 1e-12;
      const b = i % 3 === 0 ? -near : near;
      const d = ordered(a) - ordered(b);
      const expected = Number(d < 0n ? -d : d);
      expect(ulpDistance(a, b, "float64")).toBe(expected);
    }
  });

  it("counts float32 steps on the values rounded to float32", () => {
    const one = 1;
    const up = 1 + 2 ** -23;
    expect(ulpDistance(one, up, "float32")).toBe(1);
    expect(ulpDistance(one, 1 + 3 * 2 ** -23, "float32")).toBe(3);
    // A float64 reference rounds to the float32 result: 0 ulp from the correctly rounded value.
    expect(ulpDistance(0.1, Math.fround(0.1), "float32")).toBe(0);
    expect(ulpDistance(-(2 ** -149), 2 ** -149, "float32")).toBe(2);
    expect(ulpDistance(1, 2, "float32")).toBe(2 ** 23);
  });

  it("never lets a non-finite value look close", () => {
    expect(ulpDistance(Number.NaN, 1, "float32")).toBeNaN();
    expect(ulpDistance(1, Number.NaN, "float64")).toBeNaN();
    expect(ulpDistance(Number.POSITIVE_INFINITY, 1e300, "float64")).toBe(Number.POSITIVE_INFINITY);
    expect(ulpDistance(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, "float32")).toBe(0);
    // 1e39 overflows float32: not a finite number of float32 steps from 1.
    expect(ulpDistance(1e39, 1, "float32")).toBe(Number.POSITIVE_INFINITY);
  });
});

describe("abs and rel errors", () => {
  it("treats equal infinities as exact and NaN as NaN", () => {
    expect(absError(Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY)).toBe(0);
    expect(absError(Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY)).toBe(Number.POSITIVE_INFINITY);
    expect(absError(Number.NaN, 0)).toBeNaN();
    expect(absError(1, 1.5)).toBe(0.5);
  });

  it("divides by the floor when the reference is 0", () => {
    expect(relError(0, 1e-7, 1e-6)).toBeCloseTo(0.1, 12);
    expect(relError(2, 2.5, 1e-6)).toBe(0.25);
    expect(relError(0, 0, 1e-6)).toBe(0);
  });

  it("takes the floor from the batch scale, or the smallest normal for all zeros", () => {
    expect(relFloor([3, -4, Number.NaN, Number.POSITIVE_INFINITY], "float32")).toBe(4 * 2 ** -23);
    expect(relFloor([0, 0], "float64")).toBe(2 ** -1022);
  });
});

describe("cellErrors", () => {
  it("measures valid cells only and flags those over their bound", () => {
    // 2 rows × 3 tokens; row 1 has 2 valid tokens, its third cell is padding with garbage in it.
    const reference = [1, 2, 3, 1, 1, 0];
    const actual = [1, 2.5, 3, 1.1, Number.NaN, 99];
    const bound = [0.1, 0.1, 0.1, 0.2, 0.2, 0.2];
    const { error, overBound } = cellErrors({
      rows: 2,
      cols: 3,
      lengths: [3, 2],
      reference,
      actual,
      bound,
      metric: "abs",
      precision: "float64",
    });
    expect(Array.from(error.slice(0, 3))).toEqual([0, 0.5, 0]);
    expect(error[3]).toBeCloseTo(0.1, 12);
    expect(error[4]).toBeNaN();
    expect(error[5]).toBe(0);
    // NaN where the reference is 1: infinitely wrong, so ▲ over its bound (and crossed as lost by the chunked side).
    expect(Array.from(overBound)).toEqual([0, 1, 0, 0, 1, 0]);
  });

  it("flags NaN / ±Inf over its bound where the reference is finite, never a cell the reference lost", () => {
    const nan = Number.NaN;
    const inf = Number.POSITIVE_INFINITY;
    const reference = [nan, 1, inf, 1, 1];
    const actual = [nan, nan, inf, 1, 3];
    const bound = [nan, 0.1, nan, nan, 0.1];
    const { overBound, lost } = cellErrors({
      rows: 1,
      cols: 5,
      lengths: [5],
      reference,
      actual,
      bound,
      metric: "abs",
      precision: "float64",
    });
    expect(Array.from(overBound)).toEqual([0, 1, 0, 0, 1]);
    expect(Array.from(lost)).toEqual([1, 0, 1, 0, 0]);
    // The readout's one-cell verdict agrees with the pass over the batch.
    expect(reference.map((r, i) => (boundVerdict(r, actual[i], bound[i]) === BoundVerdict.over ? 1 : 0))).toEqual([
      0, 1, 0, 0, 1,
    ]);
  });

  it("marks a finite cell whose bound is NaN or ±Inf as not checked, never as within", () => {
    const nan = Number.NaN;
    const inf = Number.POSITIVE_INFINITY;
    const reference = [1, 1, 1, 1, 1, nan];
    const actual = [1.5, 1.5, 1.5, 1.5, nan, 1];
    const bound = [nan, inf, -inf, 1, nan, nan];
    const { overBound, unchecked, lost } = cellErrors({
      rows: 1,
      cols: 6,
      lengths: [6],
      reference,
      actual,
      bound,
      metric: "abs",
      precision: "float64",
    });
    expect(Array.from(unchecked)).toEqual([1, 1, 1, 0, 0, 0]);
    expect(Array.from(overBound)).toEqual([0, 0, 0, 0, 1, 0]);
    expect(Array.from(lost)).toEqual([0, 0, 0, 0, 0, 1]);
    const verdicts = reference.map((r, i) => boundVerdict(r, actual[i], bound[i]));
    expect(verdicts).toEqual([
      BoundVerdict.unchecked,
      BoundVerdict.unchecked,
      BoundVerdict.unchecked,
      BoundVerdict.within,
      BoundVerdict.over,
      BoundVerdict.none,
    ]);
  });

  it("rejects data shorter than the batch", () => {
    expect(() =>
      cellErrors({
        rows: 2,
        cols: 2,
        lengths: [2, 2],
        reference: [0],
        actual: [0],
        metric: "abs",
        precision: "float32",
      }),
    ).toThrow(/expected 2×2/);
  });
});

describe("cellLoss and cellLossText", () => {
  const nan = Number.NaN;
  const inf = Number.POSITIVE_INFINITY;

  it("says who lost a cell, and nothing for two finite values", () => {
    expect(cellLoss(1, 1.5)).toBeNull();
    expect(cellLoss(nan, nan)).toBe("both");
    expect(cellLoss(inf, inf)).toBe("both");
    expect(cellLoss(0.5, nan)).toBe("actual");
    expect(cellLoss(-inf, 2)).toBe("reference");
  });

  it("puts it in words without a NaN error figure or a bound", () => {
    expect(cellLossText("both", nan, nan)).toBe("not measured: both scans are NaN here");
    expect(cellLossText("both", inf, nan)).toBe("not measured: both scans are Infinity and NaN here");
    expect(cellLossText("actual", 0.5, nan)).toBe(
      "over its bound: only the chunked scan lost this cell (NaN; the serial scan has 0.5)",
    );
    const libraries = { reference: "slime", actual: "verl", gap: "difference" as const };
    expect(cellLossText("actual", 0.5, nan, libraries)).toBe(
      "not measured: only verl lost this cell (NaN; slime has 0.5)",
    );
    const sides = { reference: "slime", actual: "verl" };
    expect(cellLossText("reference", inf, 2, sides, (x) => x.toFixed(1))).toBe(
      "not measured: only slime lost this cell (Infinity; verl has 2.0)",
    );
    expect(cellLossText("both", nan, nan, sides)).toBe("not measured: slime and verl are NaN here");
  });
});
