import { describe, expect, it } from "vitest";
import { replaySlime, SLIME_DEFAULTS, type SlimeSettings } from "../../core";
import { dumpReplayInputs, readTensorFile, replayDump, understandDump } from "../../io/slimeDump";
import { fixtureBytes } from "../../io/slimeDump/dumpFixtures";
import { expectSameNumbers } from "../../testing/sameNumbers";
import { BatchPictures } from "../heatmap/picture";
import { gridFields, type RunGrid, replayedRows, runGrid, windowedRows } from "./runGrid";
import { keepRunPictures, runCell, runPicture } from "./runPictures";

const RPP: SlimeSettings = { ...SLIME_DEFAULTS, advantageEstimator: "reinforce_plus_plus", gamma: 0.99, klCoef: 0.05 };

/**
 * The shared fixture replayed, its fields kept by the worker, and the padded grids the page used to hold.
 * `windowTokens`: replayed a few samples a window, the rows read through the windows (a big dump's).
 */
function kept(settings: SlimeSettings = RPP, windowTokens?: number) {
  const file = "train_rpp_g099_kl005.pt";
  const tree = readTensorFile(fixtureBytes(`slime-shared/${file}`), file);
  if (!tree.ok) throw new Error(tree.error.message);
  const dump = understandDump(tree.value.root, file);
  if (!dump.ok) throw new Error(dump.error.message);
  const whole = replayDump(dump.value, settings);
  const { samples, stored } = dumpReplayInputs(dump.value);
  const replay = windowTokens ? replaySlime(samples, stored, settings, { windowTokens }) : whole;
  if (windowTokens && !(replay.ok && replay.lendRows)) throw new Error("replayed in windows");
  const infos = windowTokens
    ? keepRunPictures(dump.value, replay, windowedRows(replay), true)
    : keepRunPictures(dump.value, replay, replayedRows(replay));
  const fields = gridFields(dump.value, replay).map((field) => {
    // The grids the pictures are held to come from the whole replay's rows.
    const grid = runGrid(dump.value, whole, field);
    const info = infos[field];
    if (!grid || !info) throw new Error(`${field} is kept`);
    return { grid, info };
  });
  return { infos, fields };
}

const ASK = { maxBinsX: 7, maxBinsY: 3, metric: "abs" as const, precision: "float32" as const, colourRow: -1 };

/** The padded grid's values at one cell, as the worker's readout must give them. */
function gridCell(grid: RunGrid, row: number, token: number) {
  const i = row * grid.cols + token;
  return {
    reference: grid.reference[i],
    actual: grid.actual[i],
    bound: grid.bound ? grid.bound[i] : undefined,
    lossMask: grid.lossMask[i],
  };
}

function gridPicture(grid: RunGrid, ask: typeof ASK) {
  return new BatchPictures({ ...grid, bound: grid.bound ?? undefined }).picture(ask);
}

describe("the run worker's heatmap, kept without its padded grids", () => {
  it("pools each field's picture as the full padded grid would, for each size and colour scope asked", () => {
    const { fields } = kept();
    expect(fields.map((f) => f.info.field)).toEqual(["advantages", "returns", "kl"]);
    for (const { grid, info } of fields) {
      expect(info).toMatchObject({ rows: grid.rows, cols: grid.cols, referenceIs: grid.referenceIs });
      expect(info.lengths).toEqual(grid.lengths);
      expect(info.hasBound).toBe(grid.bound !== null);
      for (const ask of [ASK, { ...ASK, maxBinsX: 4000, maxBinsY: 400 }, { ...ASK, colourRow: 1 }]) {
        const want = gridPicture(grid, ask);
        const got = runPicture(info.pictureId, ask);
        expectSameNumbers(got?.grid, want.grid);
        expect(got?.relFloor).toBe(want.relFloor);
        expectSameNumbers(got?.pixels, want.pixels);
        expectSameNumbers(got?.present, want.present);
      }
      // Data bins, not an empty picture; and over-bound cells where the fixture has them.
      expect(runPicture(info.pictureId, ASK)?.grid.kind.some((k) => k === 0)).toBe(true);
    }
  });

  it("reads a big dump's rows through the windowed replay, to the same pictures and cells", () => {
    const { fields } = kept(RPP, 64);
    expect(fields).toHaveLength(3);
    for (const { grid, info } of fields) {
      for (const ask of [ASK, { ...ASK, maxBinsX: 4000, maxBinsY: 400 }]) {
        const want = gridPicture(grid, ask);
        const got = runPicture(info.pictureId, ask);
        expectSameNumbers(got?.grid, want.grid);
        expectSameNumbers(got?.pixels, want.pixels);
      }
      for (let row = grid.rows - 1; row >= 0; row--) {
        const token = Math.min(grid.cols - 1, 3 * row);
        expect(runCell(info.pictureId, row, token)).toEqual(gridCell(grid, row, token));
      }
    }
  });

  it("the picture after a field switch is the switched-to field's full grid's, pooled ahead or not", async () => {
    const { fields } = kept();
    const [advantages, returns, kl] = fields;
    runPicture(advantages.info.pictureId, ASK);
    expectSameNumbers(runPicture(returns.info.pictureId, ASK)?.grid, gridPicture(returns.grid, ASK).grid);
    expectSameNumbers(runPicture(advantages.info.pictureId, ASK)?.grid, gridPicture(advantages.grid, ASK).grid);
    // The other fields are pooled for this size in tasks of their own, after the answer.
    const other = { ...ASK, maxBinsX: 11 };
    runPicture(advantages.info.pictureId, other);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expectSameNumbers(runPicture(kl.info.pictureId, other)?.pixels, gridPicture(kl.grid, other).pixels);
    expectSameNumbers(runPicture(returns.info.pictureId, other)?.grid, gridPicture(returns.grid, other).grid);
  });

  it("keeps no picture it sent (the page holds it, transferred): asked again, it pools a new one alike", () => {
    const { fields } = kept();
    const id = fields[0].info.pictureId;
    const sent = runPicture(id, ASK);
    const again = runPicture(id, ASK);
    expect(again).not.toBe(sent);
    expectSameNumbers(again?.grid, sent?.grid);
    expectSameNumbers(again?.pixels, sent?.pixels);
  });

  it("a cell's values are the grid's at that cell, the padding's zeros included", () => {
    const { fields } = kept();
    for (const { grid, info } of fields) {
      for (let row = 0; row < grid.rows; row++) {
        for (let token = 0; token < grid.cols; token++) {
          expect(runCell(info.pictureId, row, token)).toEqual(gridCell(grid, row, token));
        }
      }
      expect(runCell(info.pictureId, grid.rows, 0)).toBeNull();
      expect(runCell(info.pictureId, 0, grid.cols)).toBeNull();
      expect(runCell(info.pictureId, -1, 0)).toBeNull();
    }
  });

  it("keeps a KL the replay did not recompute as the grid does: the stored KL against zeros", () => {
    const { fields } = kept({ ...RPP, klCoef: 0 });
    const kl = fields.find((f) => f.info.field === "kl");
    if (!kl) throw new Error("the fixture stores a KL");
    expect(kl.info.referenceIs).toBe("zero");
    expect(kl.grid.referenceIs).toBe("zero");
    expectSameNumbers(runPicture(kl.info.pictureId, ASK)?.grid, gridPicture(kl.grid, ASK).grid);
    expect(runCell(kl.info.pictureId, 0, 0)).toEqual({
      reference: kl.grid.reference[0],
      actual: kl.grid.actual[0],
      bound: undefined,
      lossMask: kl.grid.lossMask[0],
    });
  });

  it("answers null for a replaced report, and refuses a measure it did not keep", () => {
    const first = kept().infos;
    const old = first.returns?.pictureId ?? -1;
    expect(runPicture(old, ASK)).not.toBeNull();
    expect(() => runPicture(old, { ...ASK, metric: "ulp" })).toThrow(/measured in abs, not ulp/);
    const second = kept().infos;
    expect(runPicture(old, ASK)).toBeNull();
    expect(runCell(old, 0, 0)).toBeNull();
    expect(runPicture(second.returns?.pictureId ?? -1, ASK)).not.toBeNull();
    expect(runCell(second.returns?.pictureId ?? -1, 0, 0)).not.toBeNull();
  });
});
