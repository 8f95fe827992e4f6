import { describe, expect, it } from "vitest";
import { stateToProblem } from "../../io/playgroundProblem";
import { discountedProblem, gaeProblem, reinforceProblem, traceOf } from "../../testing/playerTestKit";
import { detailRegionOf, frame } from "./frame";
import { PHASE_NOTES } from "./phaseNotes";
import { PLAYER_EXAMPLES } from "./source";
import { CONTROLS, TOUR, TOUR_EXAMPLE, tourCursor } from "./tour";
import type { PlayerTrace } from "./trace";

const example = PLAYER_EXAMPLES.find((e) => e.id === TOUR_EXAMPLE);
const tourTrace = traceOf(stateToProblem(example?.state ?? PLAYER_EXAMPLES[0].state, "float64"));

const cursors = (trace: PlayerTrace) => TOUR.map((stop) => tourCursor(trace, stop.target));

describe("the guided tour", () => {
  it("has nine stops and explains every control somewhere", () => {
    expect(TOUR.length).toBe(9);
    const explained = new Set(TOUR.flatMap((stop) => stop.explains));
    expect(CONTROLS.filter((c) => !explained.has(c))).toEqual([]);
    for (const stop of TOUR) expect(stop.highlights.length).toBeGreaterThan(0);
  });

  it("runs on an example of its own: several chunks, a short one, one row", () => {
    expect(example?.label).toMatch(/^Tour/);
    const r = tourTrace.replay;
    expect(r.nChunks).toBeGreaterThanOrEqual(3);
    expect(r.pad).toBeGreaterThan(0);
    expect(r.rows).toBe(1);
    expect(tourTrace.granularity).toBe("token");
  });

  it("moves strictly forward through the tour's example, ending on the comparison", () => {
    const at = cursors(tourTrace);
    for (let n = 1; n < at.length; n++) expect(at[n], TOUR[n].title).toBeGreaterThan(at[n - 1]);
    expect(at[at.length - 1]).toBe(tourTrace.steps.length - 1);
  });

  it("shows every carry of its example at a stop of its own, in the order the scan makes them", () => {
    const carries = TOUR.map((stop) => tourTrace.steps[tourCursor(tourTrace, stop.target)])
      .filter((step) => step.kind === "carry")
      .map((step) => step.chunk);
    // Chunk 0's carry is 0 (nothing comes after it): stop 5 says so; every other carry is a stop.
    expect(carries).toEqual(Array.from({ length: tourTrace.replay.nChunks - 1 }, (_, c) => c + 1));
  });

  it("states the chunks' right-to-left numbering where chunks first appear", () => {
    const first = TOUR.findIndex((stop) => stop.text.some((p) => /chunk 0/.test(p)));
    expect(TOUR[first].text.join(" ")).toMatch(/numbered in scan order, so right to left/);
  });

  it("keeps stop 2 on the discounted return", () => {
    expect(TOUR[1].text.join(" ")).not.toMatch(/GAE|REINFORCE|δ/);
  });

  it("ends every stop with one change to try", () => {
    for (const stop of TOUR) expect(stop.try.label, stop.title).toMatch(/^Set /);
  });

  it("shows at each stop the step its words are about", () => {
    for (const stop of TOUR) {
      const cursor = tourCursor(tourTrace, stop.target);
      const step = tourTrace.steps[cursor];
      expect(step.phase, stop.title).toBe(stop.target.phase);
      expect(frame(tourTrace, cursor, 0).caption, stop.title).toContain(stop.shows);
    }
  });

  it("never dims the panel under the stage that a stop's step shows", () => {
    for (const stop of TOUR) {
      const f = frame(tourTrace, tourCursor(tourTrace, stop.target), 0);
      expect(stop.highlights, stop.title).toContain(detailRegionOf(f));
    }
  });

  it("writes the carry as s_c·d^(k+1), like the phase notes and the glossary", () => {
    const words = [
      ...TOUR.flatMap((s) => s.text),
      ...PHASE_NOTES.carry.map((s) => (typeof s === "string" ? s : s.term)),
    ];
    const text = words.join(" ");
    expect(text).toContain("s_c·d^(k+1)");
    expect(text).not.toMatch(/carry·d\^|s·γ\^/);
  });

  it.each([
    ["returns", traceOf(discountedProblem(2, 40, 8))],
    ["GAE", traceOf(gaeProblem(1, 30, 8))],
    ["REINFORCE++", traceOf(reinforceProblem([12, 30], 8))],
    ["a long row stepped by chunks", traceOf(discountedProblem(1, 600, 16))],
    ["a single chunk", traceOf(discountedProblem(1, 5, 8))],
  ])("lands every stop on a step of its phase, in order (%s)", (_, trace) => {
    const at = cursors(trace);
    // With fewer chunks than a stop names, its chunk is clamped to the last: carry stops may then share a step.
    const shared = (n: number) => TOUR[n].target.chunk !== undefined && TOUR[n].target.chunk >= trace.replay.nChunks;
    for (let n = 1; n < at.length; n++) {
      if (shared(n)) expect(at[n], TOUR[n].title).toBeGreaterThanOrEqual(at[n - 1]);
      else expect(at[n], TOUR[n].title).toBeGreaterThan(at[n - 1]);
    }
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
