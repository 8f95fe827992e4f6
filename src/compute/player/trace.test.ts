import { describe, expect, it } from "vitest";
import { discountedProblem, gaeProblem, reinforceProblem, traceOf } from "../../testing/playerTestKit";
import { localStepOfChunk, nextSection, previousSection, TOKEN_STEPS_MAX, validInChunk } from "./trace";

const phasesOf = (trace: ReturnType<typeof traceOf>) => trace.phases.map((p) => p.id);

describe("the trace's steps", () => {
  it("runs slime's order for returns: reverse, pad, local scans chunk by chunk, carries, combine, compare", () => {
    const trace = traceOf(discountedProblem(2, 37, 8));
    expect(phasesOf(trace)).toEqual(["reverse", "pad", "local", "carry", "combine", "compare"]);
    // 37 tokens in chunks of 8: four full chunks and a short one of 5 (the start of the sequence).
    expect(trace.replay.nChunks).toBe(5);
    expect([0, 1, 2, 3, 4].map((c) => validInChunk(trace.replay, c))).toEqual([8, 8, 8, 8, 5]);
    const local = trace.steps.filter((s) => s.kind === "local");
    expect(local).toHaveLength(37);
    expect(local.slice(0, 3).map((s) => [s.chunk, s.k])).toEqual([
      [0, 0],
      [0, 1],
      [0, 2],
    ]);
    expect(trace.steps.filter((s) => s.kind === "chunk-end").map((s) => [s.chunk, s.k])).toEqual([
      [0, 7],
      [1, 7],
      [2, 7],
      [3, 7],
      [4, 4],
    ]);
    expect(trace.steps.filter((s) => s.kind === "carry").map((s) => s.chunk)).toEqual([0, 1, 2, 3, 4]);
    expect(trace.steps).toHaveLength(2 + 37 + 5 + 5 + 1 + 1);
    expect(trace.granularity).toBe("token");
  });

  it("starts GAE with the residuals and γλ, and ends it with the returns A + V", () => {
    const trace = traceOf(gaeProblem(1, 10, 4));
    expect(phasesOf(trace)).toEqual([
      "residuals",
      "discount",
      "reverse",
      "pad",
      "local",
      "carry",
      "combine",
      "compare",
    ]);
    expect(trace.steps.filter((s) => s.phase === "combine").map((s) => s.kind)).toEqual(["combine", "gae-returns"]);
  });

  it("starts REINFORCE++ with the token rewards and the batch padding, and trims before comparing", () => {
    const trace = traceOf(reinforceProblem([5, 12, 7], 4));
    expect(phasesOf(trace)).toEqual([
      "token-rewards",
      "pad-batch",
      "reverse",
      "pad",
      "local",
      "carry",
      "combine",
      "trim",
      "compare",
    ]);
    expect(trace.steps.slice(0, 3).map((s) => s.kind)).toEqual(["kl-penalty", "outcome", "pad-batch"]);
    expect(trace.replay.cols).toBe(12);
    expect(trace.replay.lengths).toEqual([5, 12, 7]);
  });

  it("advances whole chunks per step when the padded row is long", () => {
    const trace = traceOf(discountedProblem(1, 300, 16));
    expect(300).toBeGreaterThan(TOKEN_STEPS_MAX);
    expect(trace.granularity).toBe("chunk");
    const local = trace.steps.filter((s) => s.phase === "local");
    expect(local.map((s) => s.chunk)).toEqual([...Array(19).keys()]);
    // Each step completes its chunk: k is the chunk's last real position (12 in the short last chunk).
    expect(local.map((s) => s.k).slice(-2)).toEqual([15, 11]);
  });

  it("jumps by phase, with one phase per chunk's local scan", () => {
    const trace = traceOf(discountedProblem(1, 16, 4));
    const firstLocal = localStepOfChunk(trace, 0);
    expect(trace.steps[firstLocal]).toMatchObject({ kind: "local", chunk: 0, k: 0 });
    expect(nextSection(trace, 0)).toBe(1); // reverse → pad
    expect(nextSection(trace, firstLocal)).toBe(localStepOfChunk(trace, 1));
    expect(previousSection(trace, firstLocal + 2)).toBe(firstLocal); // back to the chunk's start first
    expect(previousSection(trace, firstLocal)).toBe(1); // then to the previous phase
    const last = trace.steps.length - 1;
    expect(nextSection(trace, last)).toBe(last);
    expect(previousSection(trace, 0)).toBe(0);
    expect(trace.sections.map((s) => s.label)).toEqual([
      "Reverse time",
      "Pad to chunks",
      "Local scan · chunk 0",
      "Local scan · chunk 1",
      "Local scan · chunk 2",
      "Local scan · chunk 3",
      "Carries",
      "Combine",
      "Compare with serial",
    ]);
  });

  it("covers every step by exactly one phase and one section, in order", () => {
    for (const trace of [traceOf(reinforceProblem([9, 3], 2)), traceOf(gaeProblem(2, 7, 3))]) {
      let expected = 0;
      for (const phase of trace.phases) {
        expect(phase.first).toBe(expected);
        expect(phase.last).toBeGreaterThanOrEqual(phase.first);
        expected = phase.last + 1;
      }
      expect(expected).toBe(trace.steps.length);
      trace.steps.forEach((step, s) => {
        const section = trace.sections[step.section];
        expect(s).toBeGreaterThanOrEqual(section.first);
        expect(s).toBeLessThanOrEqual(section.last);
      });
    }
  });
});
