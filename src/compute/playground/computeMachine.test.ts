import { describe, expect, it } from "vitest";
import {
  type ComputeEvent,
  type ComputeState,
  computeReducer,
  initialCompute,
  type RunKey,
  viewOf,
} from "./computeMachine";

type R = { name: string };
const data = { rows: 1 };
const otherData = { rows: 2 };
const report = { backend: "wasm" };

function key(settings: string, d: object = data, engine: object | null = report): RunKey {
  return { settings, data: d, engine, draft: false };
}

function play(events: ComputeEvent<R>[], from: ComputeState<R> = initialCompute<R>()): ComputeState<R> {
  return events.reduce(computeReducer<R>, from);
}

const a = { name: "a, core" };
const b = { name: "a, engine" };

describe("the playground's compute machine", () => {
  it("runs each new input once: core's result first, then the final one; busy until that is drawn", () => {
    let s = play([{ type: "want", key: key("γ 0.9"), now: 0 }]);
    expect(s.run).toMatchObject({ id: 1, startedAt: 0 });
    expect(viewOf(s)).toMatchObject({ result: null, computing: true, busy: true });
    expect(play([{ type: "want", key: key("γ 0.9"), now: 5 }], s)).toBe(s);
    s = play([{ type: "preview", id: 1, result: a }], s);
    expect(viewOf(s)).toMatchObject({ result: a, source: "preview", computing: true, busy: true, behind: false });
    s = play([{ type: "drawn", result: a }], s);
    expect(s.draws).toBe(1);
    expect(viewOf(s).busy).toBe(true);
    s = play([{ type: "final", id: 1, result: b }], s);
    expect(viewOf(s)).toMatchObject({ result: b, source: "final", computing: false, busy: true });
    expect(s.runs).toBe(1);
    s = play([{ type: "drawn", result: b }], s);
    expect(viewOf(s).busy).toBe(false);
    expect(s.draws).toBe(2);
  });

  it("drops the answers of a superseded run and keeps the newest", () => {
    const s = play([
      { type: "want", key: key("γ 0.9"), now: 0 },
      { type: "want", key: key("γ 0.5"), now: 1 },
      { type: "preview", id: 1, result: a },
      { type: "final", id: 1, result: b },
      { type: "failed", id: 1, message: "late" },
      { type: "phase", id: 1, phase: "summary" },
    ]);
    expect(s.run).toMatchObject({ id: 2, phase: null });
    expect(s.shown).toBeNull();
    expect(s.error).toBeNull();
    expect(s.runs).toBe(0);
  });

  it("starts a run with core's result of its inputs when it was computed at once", () => {
    let s = play([{ type: "want", key: key("γ 0.9", data, null), now: 0, atOnce: { result: a, source: "preview" } }]);
    expect(viewOf(s)).toMatchObject({ result: a, source: "preview", computing: true });
    // The engine comes up: the same inputs are run again on it, core's result stays until then.
    s = play([{ type: "want", key: key("γ 0.9", data, report), now: 3 }], s);
    expect(s.run).toMatchObject({ id: 2 });
    expect(viewOf(s)).toMatchObject({ result: a, source: "preview", behind: false });
    // core's precisions: the result computed at once is the final one, and no run is left.
    const core = { settings: "slime-exact", data, engine: null, draft: false };
    s = play([{ type: "want", key: core, now: 4, atOnce: { result: b, source: "final" } }], s);
    expect(viewOf(s)).toMatchObject({ result: b, source: "final", computing: false });
    expect(s.runs).toBe(1);
    s = play([{ type: "want", key: { ...core, settings: "bad" }, now: 5, atOnce: { error: "row 1: NaN" } }], s);
    expect(viewOf(s)).toMatchObject({ result: b, computing: false, behind: true });
    expect(s.error).toBe("row 1: NaN");
  });

  it("shows a stroke's drafts as they come and runs the stroke's end once it is committed", () => {
    const drawn = { rows: 1, drawn: true };
    let s = play([
      { type: "want", key: key("γ 0.9"), now: 0 },
      { type: "final", id: 1, result: b },
      { type: "want", key: { ...key("γ 0.9", drawn), draft: true }, now: 1, atOnce: { result: a, source: "preview" } },
    ]);
    expect(viewOf(s)).toMatchObject({ result: a, source: "preview", computing: true, behind: false });
    // The release commits the draft's own data: the same inputs, now a run to finish.
    s = play([{ type: "want", key: key("γ 0.9", drawn), now: 2 }], s);
    expect(s.run).toMatchObject({ id: 3, key: { draft: false } });
    expect(viewOf(s).result).toBe(a);
  });

  it("keeps the last result on a failure, says why, and counts it as behind when it is of older inputs", () => {
    let s = play([
      { type: "want", key: key("γ 0.9"), now: 0 },
      { type: "final", id: 1, result: b },
      { type: "want", key: key("γ 0.9", otherData), now: 1 },
      { type: "failed", id: 2, message: "row 0 is fully masked" },
    ]);
    expect(viewOf(s)).toMatchObject({ result: b, computing: false, behind: true });
    expect(s.error).toBe("row 0 is fully masked");
    s = play([{ type: "want", key: key("γ 0.9"), now: 2 }], s);
    expect(viewOf(s)).toMatchObject({ result: b, computing: true, behind: false });
  });

  it("holds cancelled inputs until a rerun or a change", () => {
    let s = play([{ type: "want", key: key("C 64"), now: 0 }, { type: "cancel" }]);
    expect(viewOf(s)).toMatchObject({ computing: false });
    expect(s.cancelled).toBe(true);
    // The engine restarts after the cancel: the same inputs on a new worker are not run on their own.
    s = play([{ type: "want", key: key("C 64", data, { backend: "wasm, restarted" }), now: 1 }], s);
    expect(s.run).toBeNull();
    s = play([{ type: "rerun", now: 2 }], s);
    expect(s.run).toMatchObject({ id: 2 });
    expect(s.cancelled).toBe(false);
    s = play([{ type: "cancel" }, { type: "want", key: key("C 128"), now: 4 }], s);
    expect(s.run).toMatchObject({ id: 3 });
    expect(s.held).toBeNull();
  });
});
