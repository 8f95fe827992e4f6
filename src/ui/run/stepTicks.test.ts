import { describe, expect, it } from "vitest";
import { stepTicks } from "./RunStepCharts";

const steps = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => ({ t: from + i }));

describe("the step axis's ticks", () => {
  it("are whole steps 1, 2, 2.5 or 5 × 10^k apart inside the run, about five of them", () => {
    expect(stepTicks(steps(0, 49))).toEqual([0, 10, 20, 30, 40]);
    expect(stepTicks(steps(0, 3))).toEqual([0, 1, 2, 3]);
    expect(stepTicks(steps(7, 7))).toEqual([7]);
    expect(stepTicks(steps(3, 120))).toEqual([25, 50, 75, 100]);
    expect(stepTicks([])).toEqual([]);
  });
});
