import { describe, expect, it } from "vitest";
import { materializeRows } from "../../io/playgroundProblem";
import type { PlaygroundState } from "../../io/playgroundState";
import { BASE_SETTINGS } from "../../io/presets";
import { focusNote, focusParam, focusRowSource, parseFocusParam, rowInFocus } from "./focusRow";
import { sourceSizeProblem } from "./playerLimits";
import type { PlayerSource } from "./source";

const batch = (rows: number, tokens: number, selectedRow: number, chunkSize = 64): PlaygroundState => ({
  ...BASE_SETTINGS,
  chunkSize,
  selectedRow,
  data: { source: "preset", preset: "dense", seed: 5, rows, tokens, ragged: false },
});
const fromPlayground = (state: PlaygroundState): PlayerSource => ({
  kind: "state",
  state,
  label: "From the playground",
});

describe("a batch too large to replay whole", () => {
  it("opens as the row the playground had in focus (16 × 8192: row 3), with its own numbers", () => {
    const state = batch(16, 8192, 3);
    expect(sourceSizeProblem(fromPlayground(state))).toMatch(/the player replays at most 65,536/);
    const source = focusRowSource(fromPlayground(state));
    expect(source).toMatchObject({
      kind: "state",
      label: "From the playground · row 3 of 16",
      focus: { row: 3, rows: 16 },
    });
    if (source.kind !== "state") return;
    expect(materializeRows(source.state)).toEqual([materializeRows(state)[3]]);
    expect(source.state.selectedRow).toBe(0);
    expect(sourceSizeProblem(source)).toBeNull();
    expect(focusNote({ row: 3, rows: 16 })).toMatch(/^Row 3 of 16, as the playground had in focus/);
  });

  it("leaves a batch that fits alone, and refuses a row that is still too long, naming the row", () => {
    const fits = fromPlayground(batch(2, 40, 1));
    expect(focusRowSource(fits)).toBe(fits);
    // 65536 tokens in chunks of 100 pad to 656 chunks: 65,600 cells, over the 65,536 the player replays.
    const long = focusRowSource(fromPlayground(batch(4, 65536, 2, 100)));
    expect(sourceSizeProblem(long)).toMatch(
      /^Row 2 of 4 \(the row the playground had in focus; the player replays it alone\) has 1 × 65536 tokens in chunks of 100: 1 × 656 chunks × 100 = 65,600 padded cells; the player replays at most 65,536/,
    );
  });

  it("goes into the address as its row alone, with focus=3-of-16 (what the playground's Open in player writes)", () => {
    const state = batch(16, 8192, 3);
    const { state: sent, focus } = rowInFocus(state);
    expect(focus).toEqual({ row: 3, rows: 16 });
    expect(materializeRows(sent)).toEqual([materializeRows(state)[3]]);
    expect(focusParam({ row: 3, rows: 16 })).toBe("3-of-16");
    expect(parseFocusParam("3-of-16")).toEqual({ row: 3, rows: 16 });
    for (const bad of ["16-of-16", "3of16", "-1-of-4", "", null]) expect(parseFocusParam(bad)).toBeUndefined();
    expect(rowInFocus(batch(2, 40, 1)).focus).toBeUndefined();
  });
});
