import { describe, expect, it } from "vitest";
import { stateToProblem } from "../../io/playgroundProblem";
import type { PlaygroundState } from "../../io/playgroundState";
import { traceOf } from "../../testing/playerTestKit";
import { tourReference } from "../../testing/tourTryReference";
import { editSource } from "./playerEdits";
import { exampleSource, PLAYER_EXAMPLES } from "./source";
import { TOUR, TOUR_EXAMPLE, tourCursor } from "./tour";
import type { TourNumber } from "./tourTry";

const tourState = PLAYER_EXAMPLES.find((e) => e.id === TOUR_EXAMPLE)?.state as PlaygroundState;
const traceOfState = (state: PlaygroundState) => traceOf(stateToProblem(state, "float64"));
const beforeTrace = traceOfState(tourState);

describe.each(TOUR.map((stop, n) => [stop.title, n] as const))("the try of stop %s", (_, n) => {
  const stop = TOUR[n];
  const edited = editSource(exampleSource(TOUR_EXAMPLE), "try", stop.try.change);
  if (!edited.ok) throw new Error(edited.reason);
  const after = edited.source.kind === "state" ? edited.source.state : tourState;
  const afterTrace = traceOfState(after);
  const parts = stop.try.outcome(beforeTrace, afterTrace);
  const numbers = parts.filter((p): p is TourNumber => typeof p !== "string");

  it("is one change the player's controls accept, on the tour's example", () => {
    expect(edited.ok).toBe(true);
    expect(JSON.stringify(after)).not.toBe(JSON.stringify(tourState));
  });

  it("quotes numbers read from the rerun, each as core's float64 serial reference has it", () => {
    expect(numbers.some((x) => x.which === "after")).toBe(true);
    for (const x of numbers) {
      const state = x.which === "before" ? tourState : after;
      const trace = x.which === "before" ? beforeTrace : afterTrace;
      const ref = tourReference(state);
      const expected =
        x.quantity === "max-error"
          ? { value: ref.maxError(trace.replay.engineOut), tolerance: 0, what: "max |error|" }
          : ref.expected(x);
      expect(Math.abs(x.value - expected.value), `${x.which} ${expected.what}`).toBeLessThanOrEqual(expected.tolerance);
    }
  });

  it("lands the rerun on a step of the stop's phase", () => {
    const target = stop.try.at ?? stop.target;
    const step = afterTrace.steps[tourCursor(afterTrace, target)];
    expect(step.phase).toBe(target.phase);
    if (target.chunk !== undefined) expect(step.chunk).toBe(target.chunk);
  });

  it("says it in whole sentences", () => {
    const text = parts.map((p) => (typeof p === "string" ? p : `⟨${p.quantity} ${p.value}⟩`)).join("");
    expect(text).toMatch(/^[A-Z].*\.$/);
    expect(text).not.toMatch(/undefined|NaN/);
  });
});
