import { describe, expect, it } from "vitest";
import { materializeRows } from "../../io/playgroundProblem";
import type { PlaygroundState } from "../../io/playgroundState";
import { BASE_SETTINGS } from "../../io/presets";
import { addRow, removeRow, replaceRow, setOutcome, setRowLength } from "./rowEdits";

const preset: PlaygroundState = {
  ...BASE_SETTINGS,
  estimator: "reinforce_pp",
  data: { source: "preset", preset: "dense", seed: 3, rows: 3, tokens: 20, ragged: true },
};
const rows = materializeRows(preset);

describe("row edits", () => {
  it("turns a preset into its concrete rows on the first edit, changing only the edited row", () => {
    const next = replaceRow(preset, rows, 1, { ...rows[1], kl: rows[1].kl?.map(() => 0.5) });
    expect(next.data.source).toBe("inline");
    const after = materializeRows(next);
    expect(after[0]).toBe(rows[0]);
    expect(after[1].kl?.every((v) => v === 0.5)).toBe(true);
  });

  it("adds a zero row after the selected one and selects it", () => {
    const next = addRow(preset, rows, 0);
    const after = materializeRows(next);
    expect(after).toHaveLength(4);
    expect(after[1]).toMatchObject({ length: rows[0].length, outcome: 0 });
    expect(after[1].kl?.every((v) => v === 0)).toBe(true);
    expect(next.selectedRow).toBe(1);
  });

  it("removes a row but never the last one", () => {
    const next = removeRow({ ...preset, selectedRow: 2 }, rows, 2);
    if (typeof next === "string") throw new Error(next);
    expect(materializeRows(next)).toHaveLength(2);
    expect(next.selectedRow).toBe(1);
    expect(removeRow(preset, [rows[0]], 0)).toMatch(/at least one row/);
  });

  it("resizes a row in every lane and sets its outcome", () => {
    const longer = materializeRows(setRowLength(preset, rows, 0, rows[0].length + 2))[0];
    expect(longer.length).toBe(rows[0].length + 2);
    expect(longer.kl?.slice(-2)).toEqual([0, 0]);
    expect(longer.lossMask?.slice(-2)).toEqual([1, 1]);
    expect(materializeRows(setOutcome(preset, rows, 2, -3))[2].outcome).toBe(-3);
  });
});
