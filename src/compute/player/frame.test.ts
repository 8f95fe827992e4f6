import { describe, expect, it } from "vitest";
import { discountedProblem, gaeProblem, reinforceProblem, traceOf } from "../../testing/playerTestKit";
import { type CellView, cellView, type LaneId, lanesOf } from "./cells";
import { errorSummary } from "./errorSummary";
import { frame, localKnown } from "./frame";
import { localIndex, type Replay, tokenOf } from "./replay";
import type { PlayerTrace } from "./trace";

/** Everything the stage draws at a cursor, as plain data. */
function picture(trace: PlayerTrace, cursor: number, row: number) {
  const r = trace.replay;
  const f = frame(trace, cursor, row);
  const cells: Record<string, CellView> = {};
  for (const lane of lanesOf(r)) {
    for (let b = 0; b < r.rows; b++) {
      for (let i = 0; i < r.nChunks * r.chunkSize; i++) cells[`${lane}/${b}/${i}`] = cellView(r, f, lane, b, i);
    }
  }
  return { f, cells };
}

function stepOf(trace: PlayerTrace, kind: string, chunk = -1, k = -1): number {
  const s = trace.steps.findIndex((x) => x.kind === kind && (chunk < 0 || x.chunk === chunk) && (k < 0 || x.k === k));
  if (s < 0) throw new Error(`no ${kind} step for chunk ${chunk}, k ${k}`);
  return s;
}

describe("a frame", () => {
  const trace = traceOf(discountedProblem(2, 19, 4, 0.9, 4));
  const r = trace.replay;

  it("is a pure function of the cursor: going elsewhere and back gives the identical picture", () => {
    const at = stepOf(trace, "local", 2, 1);
    const before = picture(trace, at, 1);
    for (const elsewhere of [0, trace.steps.length - 1, at + 3, at - 1]) picture(trace, elsewhere, 0);
    expect(picture(trace, at, 1)).toEqual(before);
  });

  it("reveals local values chunk by chunk, token by token, and the serial loop in lockstep", () => {
    const at = stepOf(trace, "local", 2, 1);
    const f = frame(trace, at, 0);
    expect(f.reveal).toMatchObject({ localChunk: 2, localK: 1, carried: 0, serialUpTo: 2 * 4 + 2, final: false });
    expect(localKnown(f.reveal, 1, 3)).toBe(true);
    expect(localKnown(f.reveal, 2, 1)).toBe(true);
    expect(localKnown(f.reveal, 2, 2)).toBe(false);
    expect(cellView(r, f, "local", 0, 2 * 4 + 1)).toMatchObject({ state: "value", mark: "current" });
    expect(cellView(r, f, "local", 0, 2 * 4 + 2).state).toBe("hidden");
    expect(cellView(r, f, "result", 0, 0).state).toBe("hidden");
    // The cells that feed the current local sum: the chunk's inputs up to position k.
    expect(cellView(r, f, "input", 0, 2 * 4 + 0).mark).toBe("feeding");
    expect(cellView(r, f, "input", 0, 2 * 4 + 1).mark).toBe("feeding");
    expect(cellView(r, f, "input", 0, 2 * 4 + 2).mark).toBeUndefined();
    expect(cellView(r, f, "serial", 0, 2 * 4 + 1)).toMatchObject({ state: "value", mark: "current" });
    expect(cellView(r, f, "serial", 0, 2 * 4 + 2).state).toBe("hidden");
    // The matrix's active position, its terms and the engine's sum.
    expect(f.matrix).toMatchObject({ chunk: 2, k: 1, sum: r.localScans[localIndex(r, 0, 9)] });
    expect(f.matrix?.terms).toHaveLength(2);
    expect(f.serialLines[0]).toMatchObject({ t: tokenOf(r, 9), value: r.serial[tokenOf(r, 9)] });
  });

  it("adds each chunk's carry in its own step, arrow from the previous chunk's last value", () => {
    const at = stepOf(trace, "carry", 2);
    const f = frame(trace, at, 1);
    expect(f.reveal.carried).toBe(3);
    expect(f.carry).toMatchObject({ chunk: 2, carry: r.carriesIn[1 * r.nChunks + 2], sourceT: tokenOf(r, 7) });
    expect(cellView(r, f, "result", 1, 8)).toMatchObject({
      state: "value",
      mark: "current",
      value: r.combined[r.cols + tokenOf(r, 8)],
    });
    expect(cellView(r, f, "result", 1, 7).mark).toBe("source");
    expect(cellView(r, f, "result", 1, 12).state).toBe("hidden");
    const carry = f.carry;
    if (!carry) throw new Error("no carry view");
    carry.combined.forEach((value, k) => {
      expect(value).toBe(Math.fround(carry.locals[k] + carry.terms[k]));
      expect(carry.terms[k]).toBe(Math.fround(carry.carry * r.carryPowers[k]));
    });
  });

  it("pads before t = 0 from the pad step on", () => {
    // 19 tokens in chunks of 4: one padded position, reversed index 19, before t = 0.
    expect(r.pad).toBe(1);
    expect(cellView(r, frame(trace, stepOf(trace, "reverse"), 0), "input", 0, 19).state).toBe("hidden");
    expect(cellView(r, frame(trace, stepOf(trace, "pad"), 0), "input", 0, 19).state).toBe("chunk-pad");
  });

  it("shows every output of every row at the last step, with the engine's values and the errors", () => {
    const f = frame(trace, trace.steps.length - 1, 0);
    expect(f.step.kind).toBe("compare");
    for (let b = 0; b < r.rows; b++) {
      for (let t = 0; t < r.cols; t++) {
        const i = r.cols - 1 - t;
        expect(cellView(r, f, "result", b, i)).toMatchObject({ state: "value", value: r.engineOut[b * r.cols + t] });
        expect(cellView(r, f, "serial", b, i)).toMatchObject({ state: "value", value: r.serial[b * r.cols + t] });
        const error = cellView(r, f, "error", b, i);
        expect(error.value).toBe(Math.abs(r.engineOut[b * r.cols + t] - r.serial[b * r.cols + t]));
        expect(error.ratio).toBeLessThanOrEqual(1);
      }
    }
    expect(f.caption).toMatch(/all 38 measured cells are within their error bound/);
  });

  it("clamps the cursor and the focus row", () => {
    expect(frame(trace, -5, 9).cursor).toBe(0);
    expect(frame(trace, -5, 9).focusRow).toBe(1);
    expect(frame(trace, 1e9, -1)).toMatchObject({ cursor: trace.steps.length - 1, focusRow: 0 });
  });
});

describe("frames of the other estimators", () => {
  it("REINFORCE++: the KL penalty, then the outcome at the last unmasked token, then padding, then the trim", () => {
    const trace = traceOf(reinforceProblem([6, 10], 4, 8));
    const r: Replay = trace.replay;
    const x = r.reinforce;
    if (!x) throw new Error("no REINFORCE++ extras");
    const last = x.lastUnmasked[0];
    const penalty = frame(trace, 0, 0);
    const input = (f: ReturnType<typeof frame>, b: number, t: number) => cellView(r, f, "input", b, r.cols - 1 - t);
    expect(input(penalty, 0, last).value).toBe(x.penalty[last]);
    const outcome = frame(trace, 1, 0);
    expect(input(outcome, 0, last)).toMatchObject({ mark: "current", value: r.scanned[last] });
    expect(r.scanned[last]).toBe(Math.fround(x.penalty[last] + x.outcomes[0]));
    // Row 0 is 6 long: its tokens 6…9 are padding, hidden until the batch is padded.
    expect(input(outcome, 0, 7).state).toBe("hidden");
    expect(input(frame(trace, 2, 0), 0, 7)).toMatchObject({ state: "batch-pad", value: 0 });
    const combine = frame(trace, trace.phases.find((p) => p.id === "combine")?.first ?? -1, 0);
    expect(cellView(r, combine, "result", 0, r.cols - 1 - 7).state).toBe("batch-pad");
    const trim = frame(trace, trace.phases.find((p) => p.id === "trim")?.first ?? -1, 0);
    expect(cellView(r, trim, "result", 0, r.cols - 1 - 7).state).toBe("trimmed");
    expect(cellView(r, trim, "result", 0, r.cols - 1 - 5).state).toBe("value");
    expect(errorSummary(r).cells).toBe(16);
  });

  it("GAE: the returns lane appears with its own step, R = A + V from the engine", () => {
    const trace = traceOf(gaeProblem(1, 9, 4));
    const r = trace.replay;
    const lanes: LaneId[] = lanesOf(r);
    expect(lanes).toContain("returns");
    const combine = trace.phases.find((p) => p.id === "combine");
    if (!combine || !r.gae) throw new Error("no combine phase");
    expect(cellView(r, frame(trace, combine.first, 0), "returns", 0, 0).state).toBe("hidden");
    expect(cellView(r, frame(trace, combine.last, 0), "returns", 0, 0)).toMatchObject({
      state: "value",
      value: r.gae.returns[r.cols - 1],
    });
    expect(frame(trace, 0, 0).caption).toMatch(/^TD residuals δ_t = r_t \+ γ·V_\(t\+1\) − V_t/);
  });
});
