import { describe, expect, it } from "vitest";
import { serialDiscountedReturns } from "../../core";
import { jsLoopReturns } from "./jsLoop";
import { measureRuns, measureSideBySide } from "./measureRuns";
import { checkRun } from "./runCheck";
import { elementBounds, makeSizeData, rowPrefixes } from "./sizeData";

/** A clock that advances only when a run runs, by the run's scripted duration. */
function scripted(durations: number[]) {
  let t = 0;
  let i = 0;
  return {
    now: () => t,
    run: () => {
      t += durations[Math.min(i++, durations.length - 1)];
      return [1, 2, 3];
    },
    runs: () => i,
  };
}

describe("timing a row", () => {
  it("leaves the warm-up out of the median and checks every run", async () => {
    const clock = scripted([900, 20, 12, 10, 30, 11, 13]);
    let checks = 0;
    const m = await measureRuns(5, {
      run: clock.run,
      now: clock.now,
      check: () => ({ maxAbsError: 1e-7 * ++checks, worstBoundFraction: 0.1 }),
      countTensors: () => 4,
    });
    expect(m.warmupMs).toBe(900);
    expect(m.timesMs).toEqual([12, 10, 30, 11, 13]);
    expect(m.medianMs).toBe(12);
    expect(m.checkedRuns).toBe(7);
    expect(clock.runs()).toBe(7);
    expect(m.check.maxAbsError).toBeCloseTo(7e-7);
    expect(m).toMatchObject({ tensorsBefore: 4, tensorsAfter: 4, loops: 1 });
  });

  it("repeats a run shorter than the timer's resolution within each sample", async () => {
    const clock = scripted([3, 2 ** -6]);
    const m = await measureRuns(5, {
      run: clock.run,
      now: clock.now,
      check: () => ({ maxAbsError: 0, worstBoundFraction: 0 }),
    });
    expect(m.loops).toBe(320);
    expect(m.timesMs.every((t) => Math.abs(t - 2 ** -6) < 1e-9)).toBe(true);
    expect(m.checkedRuns).toBe(2 + 5 * 320);
    expect(m.tensorsBefore).toBeUndefined();
  });

  it("stops after the warm-up when told its runs would take too long", async () => {
    const clock = scripted([5000, 5000]);
    const m = await measureRuns(5, {
      run: clock.run,
      now: clock.now,
      check: () => ({ maxAbsError: 0, worstBoundFraction: 0 }),
      countTensors: () => 2,
      afterWarmup: (ms) => (ms > 1000 ? `too slow: ${ms}` : undefined),
    });
    expect(m).toMatchObject({ abandoned: "too slow: 5000", timesMs: [], checkedRuns: 1, tensorsAfter: 2 });
    expect(clock.runs()).toBe(1);
  });

  it("keeps the worst check: one wrong run makes the row wrong", async () => {
    const clock = scripted([1, 1]);
    let n = 0;
    const m = await measureRuns(5, {
      run: clock.run,
      now: clock.now,
      check: () =>
        ++n === 4 ? { maxAbsError: 0.3, worstBoundFraction: 50 } : { maxAbsError: 1e-6, worstBoundFraction: 0.2 },
    });
    expect(m.check).toEqual({ maxAbsError: 0.3, worstBoundFraction: 50 });
  });
});

describe("checking a run", () => {
  it("holds each element to its own bound, and a NaN to nothing", () => {
    const reference = Float64Array.from([1, 100]);
    const bound = Float64Array.from([1e-3, 1e-3]);
    const ok = checkRun([1.0005, 100], reference, bound);
    expect(ok.maxAbsError).toBeCloseTo(5e-4, 12);
    expect(ok.worstBoundFraction).toBeCloseTo(0.5, 9);
    expect(checkRun([1, 100.01], reference, bound).worstBoundFraction).toBeGreaterThan(1);
    expect(checkRun([Number.NaN, 100], reference, bound)).toEqual({
      maxAbsError: Number.NaN,
      worstBoundFraction: Number.POSITIVE_INFINITY,
    });
    expect(checkRun([1], reference, bound).worstBoundFraction).toBe(Number.POSITIVE_INFINITY);
  });

  it("finds the plain JS loop within the serial float32 bound, and a broken loop beyond it", () => {
    const data = makeSizeData({ rows: 3, cols: 300 }, 5, 0.99);
    const bound = elementBounds(data, 0.99, "serial", 128);
    const out = jsLoopReturns(data.rewards, 3, 300, 0.99);
    expect(checkRun(out, data.reference, bound).worstBoundFraction).toBeLessThanOrEqual(1);
    const f32 = serialDiscountedReturns({ rows: 3, cols: 300, data: data.rewards }, 0.99).data;
    expect(checkRun(out, data.reference, bound).maxAbsError).toBeLessThan(1e-4);
    expect(checkRun(f32, data.reference, bound).worstBoundFraction).toBeLessThanOrEqual(1);
    out[450] += 1e-3;
    expect(checkRun(out, data.reference, bound).worstBoundFraction).toBeGreaterThan(1);
  });

  it("cuts every row to its prefix for the per-token calibration", () => {
    const rewards = Float32Array.from([1, 2, 3, 4, 5, 6, 7, 8]);
    expect([...rowPrefixes(rewards, { rows: 2, cols: 4 }, 2)]).toEqual([1, 2, 5, 6]);
  });
});

describe("timing rows side by side", () => {
  it("takes one sample of each row in turn, each row with its own warm-up, loops, checks and median", async () => {
    let t = 0;
    const order: string[] = [];
    const row = (name: string, durations: number[]) => {
      let i = 0;
      return {
        now: () => t,
        run: () => {
          order.push(name);
          t += durations[Math.min(i++, durations.length - 1)];
          return [1];
        },
        check: () => ({ maxAbsError: 0, worstBoundFraction: 0.5 }),
        countTensors: () => 2,
      };
    };
    const [a, b] = await measureSideBySide(3, [row("a", [500, 20, 10, 30, 20]), row("b", [700, 40, 50, 60, 70])]);
    // Warm-up and probe of each, then rounds that alternate which row goes first.
    expect(order).toEqual(["a", "a", "b", "b", "a", "b", "b", "a", "a", "b"]);
    expect(a).toMatchObject({ warmupMs: 500, timesMs: [10, 30, 20], medianMs: 20, loops: 1, checkedRuns: 5 });
    expect(b).toMatchObject({ warmupMs: 700, timesMs: [50, 60, 70], medianMs: 60, checkedRuns: 5 });
    expect(a).toMatchObject({ tensorsBefore: 2, tensorsAfter: 2 });
  });

  it("charges a leak to the row whose runs left the tensors, not to its neighbours", async () => {
    let live = 10;
    let t = 0;
    const row = (leaks: number) => ({
      now: () => t,
      run: () => {
        t += 50;
        live += leaks;
        return [1];
      },
      check: () => ({ maxAbsError: 0, worstBoundFraction: 0.5 }),
      countTensors: () => live,
    });
    const [clean, leaky] = await measureSideBySide(2, [row(0), row(1)]);
    expect(clean).toMatchObject({ tensorsBefore: 10, tensorsAfter: 10 });
    // Four runs (warm-up, probe, two samples), one tensor each.
    expect(leaky).toMatchObject({ tensorsBefore: 10, tensorsAfter: 14 });
  });
});
