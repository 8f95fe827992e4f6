import { describe, expect, it } from "vitest";
import type { CaseVerdict } from "../../conformance";
import { buildCase } from "../../io/caseBuilder";
import type { ScanCase } from "../../io/caseSchema";
import type { CaseRow } from "./runConformance";
import {
  cancelledLine,
  INITIAL_RUN_STATE,
  isBusy,
  listedCases,
  progressLine,
  type RunAction,
  type RunState,
  runReducer,
  shownSummary,
  showsTable,
} from "./runState";

function cases(prefix: string, count: number): ScanCase[] {
  return Array.from({ length: count }, (_, i) =>
    buildCase(
      { kind: "discounted", rewards: { rows: 1, cols: 1, data: new Float64Array([i]) }, discount: 0.5, chunkSize: 4 },
      `${prefix}${i}`,
    ),
  );
}

function row(name: string, passed: boolean): CaseRow {
  const verdict: CaseVerdict = {
    name,
    kind: "discounted",
    shape: "1x1",
    maxAbsError: passed ? 0 : 1,
    maxErrorElement: "returns[0]",
    toleranceAtMaxError: 1e-6,
    tolerance: 1e-6,
    boundFraction: passed ? 0 : 1e6,
    worst: { element: "returns[0]", error: passed ? 0 : 1, tolerance: 1e-6, fraction: passed ? 0 : 1e6 },
    compared: 1,
    passed,
    detail: "",
  };
  return { verdict, backend: "wasm", millis: 1 };
}

const apply = (actions: RunAction[], state = INITIAL_RUN_STATE): RunState => actions.reduce(runReducer, state);

/** The public file's run, finished: 3 cases, all passed. */
function finishedGood(): RunState {
  const good = cases("good", 3);
  return apply([
    { type: "read", readId: 1, fileName: "good.json" },
    { type: "start", runId: 1, cases: good, fileName: "good.json", readId: 1 },
    { type: "rows", runId: 1, rows: [[0, row("good0", true)]] },
    { type: "finish", runId: 1, rows: good.map((c) => row(c.name, true)) },
  ]);
}

describe("conformance run state", () => {
  it("shows the summary of a finished run, from that run's verdicts", () => {
    const state = finishedGood();
    expect(shownSummary(state)).toBe("3 passed, 0 failed");
    expect(isBusy(state)).toBe(false);
    expect(progressLine(state)).toBeNull();
  });

  it("hides the previous summary and table the moment a new file is chosen, and marks the view busy", () => {
    const state = runReducer(finishedGood(), { type: "read", readId: 2, fileName: "next.json" });
    expect(shownSummary(state)).toBeNull();
    expect(showsTable(state)).toBe(false);
    expect(isBusy(state)).toBe(true);
    expect(progressLine(state)).toBe("Reading next.json…");
  });

  it("a bad file brings the previous finished results back", () => {
    const reading = runReducer(finishedGood(), { type: "read", readId: 2, fileName: "bad.json" });
    const state = runReducer(reading, { type: "read-failed", readId: 2 });
    expect(shownSummary(state)).toBe("3 passed, 0 failed");
    expect(state.fileName).toBe("good.json");
    expect(showsTable(state)).toBe(true);
  });

  it("a new run owns the table at once: its own cases, no rows of the old run, no summary", () => {
    const next = cases("next", 2);
    const state = apply(
      [
        { type: "read", readId: 2, fileName: "next.json" },
        { type: "start", runId: 2, cases: next, fileName: "next.json", readId: 2 },
      ],
      finishedGood(),
    );
    expect(state.cases.map((c) => c.name)).toEqual(["next0", "next1"]);
    expect(state.rows).toEqual([undefined, undefined]);
    expect(shownSummary(state)).toBeNull();
    expect(isBusy(state)).toBe(true);
    expect(showsTable(state)).toBe(true);
  });

  it("drops everything a superseded run sends: rows, its finish, its stop", () => {
    const good = cases("good", 3);
    const next = cases("next", 2);
    const state = apply([
      { type: "start", runId: 1, cases: good, fileName: "good.json" },
      { type: "rows", runId: 1, rows: [[0, row("good0", true)]] },
      { type: "start", runId: 2, cases: next, fileName: "next.json" },
      { type: "rows", runId: 1, rows: [[1, row("good1", true)]] },
      { type: "finish", runId: 1, rows: good.map((c) => row(c.name, true)) },
      { type: "stop", runId: 1 },
      { type: "rows", runId: 2, rows: [[0, row("next0", false)]] },
    ]);
    expect(state.runId).toBe(2);
    expect(state.phase).toBe("running");
    expect(state.rows).toEqual([row("next0", false), undefined]);
    expect(shownSummary(state)).toBeNull();
    expect(progressLine(state)).toBe("Running: 1 of 2 cases checked, 1 failing so far…");
  });

  it("an older run cannot start after a newer one", () => {
    const state = apply([
      { type: "start", runId: 3, cases: cases("new", 1), fileName: "new.json" },
      { type: "start", runId: 2, cases: cases("old", 1), fileName: "old.json" },
    ]);
    expect(state.fileName).toBe("new.json");
  });

  it("a run started from the menus while a newer file is read stays hidden until that file is parsed", () => {
    const reading = runReducer(finishedGood(), { type: "read", readId: 2, fileName: "next.json" });
    const rerun = runReducer(reading, { type: "start", runId: 2, cases: cases("good", 3), fileName: "good.json" });
    expect(rerun.reading).toEqual({ readId: 2, fileName: "next.json" });
    expect(
      shownSummary(
        runReducer(rerun, { type: "finish", runId: 2, rows: cases("good", 3).map((c) => row(c.name, true)) }),
      ),
    ).toBeNull();
  });

  it("of two files chosen quickly, the later one's read wins", () => {
    const state = apply(
      [
        { type: "read", readId: 2, fileName: "a.json" },
        { type: "read", readId: 3, fileName: "b.json" },
        { type: "read-failed", readId: 2 },
      ],
      finishedGood(),
    );
    expect(state.reading).toEqual({ readId: 3, fileName: "b.json" });
  });

  it("a run that ends without a verdict for every case has no summary", () => {
    const two = cases("c", 2);
    const short = apply([
      { type: "start", runId: 1, cases: two, fileName: "f.json" },
      { type: "finish", runId: 1, rows: [row("c0", true)] },
    ]);
    expect(short.phase).toBe("stopped");
    const holes = apply([
      { type: "start", runId: 1, cases: two, fileName: "f.json" },
      { type: "finish", runId: 1, rows: Object.assign(new Array<CaseRow>(2), { 1: row("c1", true) }) },
    ]);
    expect(shownSummary(holes)).toBeNull();
    expect(shownSummary(short)).toBeNull();
    const stopped = apply([
      { type: "start", runId: 1, cases: two, fileName: "f.json" },
      { type: "rows", runId: 1, rows: [[0, row("c0", true)]] },
      { type: "stop", runId: 1 },
    ]);
    expect(shownSummary(stopped)).toBeNull();
    expect(progressLine(stopped)).toBe("Stopped after 1 of 2 cases: this run has no verdict.");
  });

  it("a cancelled run puts the previous finished run back, saying so; its late answers are dropped", () => {
    const next = cases("next", 2);
    const cancelled = apply(
      [
        { type: "start", runId: 2, cases: next, fileName: "next.json" },
        { type: "rows", runId: 2, rows: [[0, row("next0", false)]] },
        { type: "cancel", runId: 2 },
        { type: "rows", runId: 2, rows: [[1, row("next1", true)]] },
        { type: "finish", runId: 2, rows: next.map((c) => row(c.name, true)) },
      ],
      finishedGood(),
    );
    expect(cancelled.fileName).toBe("good.json");
    expect(shownSummary(cancelled)).toBe("3 passed, 0 failed");
    expect(cancelledLine(cancelled)).toBe(
      "Cancelled the run of next.json after 1 of 2 cases; below: the previous run's results (good.json).",
    );
    expect(isBusy(cancelled)).toBe(false);
    const first = apply([
      { type: "start", runId: 1, cases: next, fileName: "next.json" },
      { type: "cancel", runId: 1 },
    ]);
    expect(progressLine(first)).toBe("Cancelled the run of next.json after 0 of 2 cases: this run has no verdict.");
    expect(cancelledLine(first)).toBeNull();
  });

  it("says which case the engine is on and for how long", () => {
    const state = apply([
      { type: "read", readId: 1, fileName: "big.json", at: 1000 },
      { type: "start", runId: 1, cases: cases("c", 3), fileName: "big.json", readId: 1, at: 2000 },
      { type: "rows", runId: 1, rows: [[0, row("c0", true)]], at: 2500 },
    ]);
    expect(progressLine(state, 6000)).toBe("Running: 1 of 3 cases checked… Case 2 (c1) for 3.5 s; the run 4.0 s.");
    expect(progressLine(runReducer(state, { type: "read", readId: 2, fileName: "x.json", at: 6000 }), 7250)).toBe(
      "Reading x.json… 1.3 s",
    );
  });

  it("counts each case once, and lists only the failing ones on request", () => {
    const four = cases("c", 4);
    const state = apply([
      { type: "start", runId: 1, cases: four, fileName: "f.json" },
      {
        type: "rows",
        runId: 1,
        rows: [
          [1, row("c1", false)],
          [2, row("c2", true)],
        ],
      },
      {
        type: "rows",
        runId: 1,
        rows: [
          [1, row("c1", true)],
          [3, row("c3", false)],
          [9, row("x", false)],
        ],
      },
    ]);
    expect([state.done, state.failed]).toEqual([3, 2]);
    expect(listedCases(state, true)).toEqual([1, 3]);
    expect(listedCases(state, false)).toEqual([0, 1, 2, 3]);
  });
});
