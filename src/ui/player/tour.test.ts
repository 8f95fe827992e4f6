import { describe, expect, it } from "vitest";
import { discountedProblem, gaeProblem, reinforceProblem, traceOf } from "./playerTestKit";
import { CONTROLS, TOUR, tourCursor } from "./tour";

describe("the guided tour", () => {
  it("has about seven stops and explains every control somewhere", () => {
    expect(TOUR.length).toBeGreaterThanOrEqual(6);
    expect(TOUR.length).toBeLessThanOrEqual(8);
    const explained = new Set(TOUR.flatMap((stop) => stop.explains));
    expect(CONTROLS.filter((c) => !explained.has(c))).toEqual([]);
    for (const stop of TOUR) expect(stop.highlights.length).toBeGreaterThan(0);
  });

  it.each([
    ["returns", traceOf(discountedProblem(2, 40, 8))],
    ["GAE", traceOf(gaeProblem(1, 30, 8))],
    ["REINFORCE++", traceOf(reinforceProblem([12, 30], 8))],
    ["a long row stepped by chunks", traceOf(discountedProblem(1, 600, 16))],
    ["a single chunk", traceOf(discountedProblem(1, 5, 8))],
  ])("lands every stop on a step of its phase (%s)", (_, trace) => {
    for (const stop of TOUR) {
      const step = trace.steps[tourCursor(trace, stop.target)];
      expect(step.phase, stop.title).toBe(stop.target.phase);
      if (stop.target.chunk !== undefined)
        expect(step.chunk).toBe(Math.min(stop.target.chunk, trace.replay.nChunks - 1));
    }
  });

  it("goes to the requested position of a chunk", () => {
    const trace = traceOf(discountedProblem(1, 40, 8));
    expect(trace.steps[tourCursor(trace, { phase: "local", chunk: 0, k: 3 })]).toMatchObject({
      kind: "local",
      chunk: 0,
      k: 3,
    });
    expect(trace.steps[tourCursor(trace, { phase: "local", kind: "chunk-end", chunk: 1 })]).toMatchObject({
      kind: "chunk-end",
      chunk: 1,
    });
  });
});
