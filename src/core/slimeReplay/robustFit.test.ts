import { describe, expect, it } from "vitest";
import { EquationSet } from "./leastSquares";
import { readNormalization } from "./normalizationFit";
import { equationTag, robustFit, solveKept, tagSample } from "./robustFit";

/** y = 0.5·t − 2 on 200 equations of noise scale 1e-6, `bad` of them moved by 3 (a bug's departure). */
function line(bad: number[]): EquationSet {
  const set = new EquationSet(2);
  for (let t = 0; t < 200; t++) set.add(0.5 * t - 2 + (bad.includes(t) ? 3 : 0), [t, 1], 1e-6, equationTag(1, t));
  return set;
}

const fitOf = (set: EquationSet) => robustFit((excluded) => solveKept(set, excluded));

describe("robustFit: a minority of departing equations set aside", () => {
  it("keeps every equation of a system that follows the model", () => {
    const fit = fitOf(line([]));
    expect(fit.leftOut).toEqual([]);
    expect(fit.equations).toBe(200);
    expect(fit.theta[0]).toBeCloseTo(0.5, 12);
  });

  it("sets the departing equations aside and reads the unknowns from the rest, their uncertainty from the kept ones", () => {
    const fit = fitOf(line([0, 57, 199]));
    expect(fit.leftOut).toEqual([equationTag(1, 0), equationTag(1, 57), equationTag(1, 199)]);
    expect(fit.leftOut.map(tagSample)).toEqual([1, 1, 1]);
    expect(fit.equations).toBe(197);
    expect(fit.theta[0]).toBeCloseTo(0.5, 12);
    expect(fit.theta[1]).toBeCloseTo(-2, 10);
    expect(fit.chiSquare).toBeLessThan(1e-6);
  });

  it("reads a wide departure as it is: more than a fifth of the equations is not a minority", () => {
    const bad = Array.from({ length: 60 }, (_, k) => 3 * k);
    const fit = fitOf(line(bad));
    expect(fit.leftOut).toEqual([]);
    expect(fit.equations).toBe(200);
    expect(fit.chiSquare).toBeGreaterThan(1e12);
  });
});

describe("readNormalization: advantages that are not the raw ones were whitened", () => {
  const raw = [Float64Array.from([1, 2, 3, 4])];
  const masks = [new Float64Array(4).fill(1)];
  const scale = [Float64Array.from([1, 2, 3, 4])];
  it("the raw advantages: not normalised", () => {
    expect(readNormalization(raw, raw, masks, scale)).toEqual({ normalized: false });
  });
  it("NaN advantages where the raw ones are finite (slime's float32 whitening cancelling): normalised", () => {
    const nan = [new Float64Array(4).fill(Number.NaN)];
    expect(readNormalization(raw, nan, masks, scale).normalized).toBe(true);
  });
  it("neither the raw advantages nor the batch's whitening: normalised, with a note", () => {
    const off = [Float64Array.from([-1.2, -0.4, 0.4, 1.3])];
    const read = readNormalization(raw, off, masks, scale);
    expect(read.normalized).toBe(true);
    expect("note" in read && read.note).toMatch(/not their whitening/);
  });
});
