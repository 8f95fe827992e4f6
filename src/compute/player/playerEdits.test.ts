import { describe, expect, it } from "vitest";
import { buildCase, buildCaseFile } from "../../io/caseBuilder";
import { materializeRows, stateToProblem } from "../../io/playgroundProblem";
import type { PlaygroundState } from "../../io/playgroundState";
import { discountedProblem, traceOf } from "../../testing/playerTestKit";
import { cursorPlace, editableState, editSource, sourceOrigin, withLength, withRow } from "./playerEdits";
import { exampleSource, type PlayerSource } from "./source";
import { tourCursor } from "./tour";

const tour = exampleSource("tour");
const stateOf = (source: PlayerSource): PlaygroundState => {
  if (source.kind !== "state") throw new Error("expected a state source");
  return source.state;
};
const traceOfState = (state: PlaygroundState) => traceOf(stateToProblem(state, "float64"));

describe("an edit in the player", () => {
  it("changes γ and keeps everything else, naming the example it came from", () => {
    const edited = editSource(tour, "γ", (s) => ({ ...s, gamma: 0.5 }));
    expect(edited.ok).toBe(true);
    if (!edited.ok) return;
    const state = stateOf(edited.source);
    expect(state.gamma).toBe(0.5);
    expect(state.chunkSize).toBe(stateOf(tour).chunkSize);
    expect(state.data).toEqual(stateOf(tour).data);
    expect(sourceOrigin(edited.source)).toBe("tour");
    expect(edited.source.kind === "state" && edited.source.label).toBe("Edited · 1 row × 14 tokens, C = 4, γ = 0.5");
  });

  it("refuses a state the schema or the player refuses, naming the field, and keeps the source", () => {
    const outside = editSource(tour, "γ (discount)", (s) => ({ ...s, gamma: 1.5 }));
    expect(outside).toEqual({ ok: false, reason: "γ (discount): gamma: expected a number between 0 and 1, got 1.5" });
    const wide = editSource(tour, "Chunk size C", (s) => ({ ...s, chunkSize: 1024 }));
    expect(wide.ok).toBe(false);
    if (!wide.ok) expect(wide.reason).toMatch(/^Chunk size C: The edited batch has chunks of 1,024: a 1,024 × 1,024/);
    const long = editSource(tour, "Length T", (s) => withLength(s, 70000));
    expect(long.ok).toBe(false);
    if (!long.ok)
      expect(long.reason).toMatch(/^Length T: data\.rows\[0\]\.length: expected an integer between 0 and 65536/);
    // Two rows of 40000 tokens pass the schema but not the player's 65,536 padded cells.
    const two = editSource(exampleSource("returns"), "Length T", (s) => withLength(s, 40000));
    expect(two.ok).toBe(false);
    if (!two.ok)
      expect(two.reason).toMatch(
        /^Length T: The edited batch has 2 × 40000 tokens .* the player replays at most 65,536/,
      );
  });

  it("sets the length of the longest rows, keeping the shorter rows of a ragged batch and every value kept", () => {
    const ragged = stateOf(exampleSource("reinforce"));
    const rows = materializeRows(ragged);
    const longest = Math.max(...rows.map((r) => r.length));
    const cut = materializeRows(withLength(ragged, 20));
    rows.forEach((row, b) => {
      const expected = row.length === longest || row.length > 20 ? 20 : row.length;
      expect(cut[b].length).toBe(expected);
      expect(cut[b].kl?.slice(0, Math.min(row.length, 20))).toEqual(row.kl?.slice(0, 20));
    });
    const longer = materializeRows(withLength(stateOf(tour), 16))[0];
    expect(longer.rewards).toEqual([0, 0.5, 0, 0, -0.25, 0, 0, 0, 0.5, 0, 0, 0, 0, 1, 0, 0]);
  });

  it("replaces the drawn row and only it", () => {
    const two = stateOf(exampleSource("returns"));
    const rows = materializeRows(two);
    const drawn = { length: rows[1].length, rewards: new Array(rows[1].length).fill(0.25) };
    const next = materializeRows(withRow(two, 1, drawn));
    expect(next[0]).toEqual(rows[0]);
    expect(next[1]).toEqual(drawn);
  });

  it("opens a case of a file as a state to edit, with its own numbers", () => {
    const problem = discountedProblem(1, 6, 2, 0.9, 4);
    const file = buildCaseFile([buildCase(problem, "small")], "edits");
    const source: PlayerSource = { kind: "case", file, fileName: "edits.json", index: 0 };
    const editable = editableState(source);
    expect(editable.ok).toBe(true);
    if (!editable.ok) return;
    expect(editable.state.chunkSize).toBe(2);
    expect(materializeRows(editable.state)[0].rewards).toEqual(
      Array.from(problem.kind === "discounted" ? problem.rewards.data : []),
    );
  });
});

describe("the cursor after an edit", () => {
  it("stays on the same phase and chunk after a chunk-size change, clamped where the chunk is gone", () => {
    const before = traceOfState(stateOf(tour));
    // The carry into chunk 3 (4 chunks of 4): with C = 8 there are only 2 chunks, so it lands on chunk 1.
    const carry3 = before.steps.findIndex((s) => s.phase === "carry" && s.chunk === 3);
    const wider = traceOfState({ ...stateOf(tour), chunkSize: 8 });
    const at = tourCursor(wider, cursorPlace(before, carry3));
    expect(wider.steps[at]).toMatchObject({ phase: "carry", chunk: 1 });
    // A local step at k = 2 of chunk 1 is found again at k = 2 of chunk 1 with C = 3.
    const local = before.steps.findIndex((s) => s.phase === "local" && s.chunk === 1 && s.k === 2);
    const narrower = traceOfState({ ...stateOf(tour), chunkSize: 3 });
    const there = narrower.steps[tourCursor(narrower, cursorPlace(before, local))];
    expect(there).toMatchObject({ phase: "local", kind: "local", chunk: 1, k: 2 });
  });

  it("stays on the same step when γ changes (the steps are the same)", () => {
    const before = traceOfState(stateOf(tour));
    const after = traceOfState({ ...stateOf(tour), gamma: 0.5 });
    for (const cursor of [0, 5, before.steps.length - 1]) {
      expect(tourCursor(after, cursorPlace(before, cursor))).toBe(cursor);
    }
  });
});
