import { describe, expect, it } from "vitest";
import { SLIME_DEFAULTS, type SlimeSettings } from "../../core";
import { readTensorFile, replayDump, understandDump } from "../../io/slimeDump";
import { fixtureBytes } from "../../io/slimeDump/dumpFixtures";
import { BatchPictures } from "../heatmap/picture";
import { runGrid } from "./runGrid";
import { keepRunPictures, runPicture } from "./runPictures";

const RPP: SlimeSettings = { ...SLIME_DEFAULTS, advantageEstimator: "reinforce_plus_plus", gamma: 0.99, klCoef: 0.05 };

function grids() {
  const file = "train_rpp_g099_kl005.pt";
  const tree = readTensorFile(fixtureBytes(`slime-shared/${file}`), file);
  if (!tree.ok) throw new Error(tree.error.message);
  const dump = understandDump(tree.value.root, file);
  if (!dump.ok) throw new Error(dump.error.message);
  const replay = replayDump(dump.value, RPP);
  return {
    advantages: runGrid(dump.value, replay, "advantages"),
    returns: runGrid(dump.value, replay, "returns"),
    kl: runGrid(dump.value, replay, "kl"),
  };
}

describe("the run worker's heatmap pictures", () => {
  it("pools each field as the page would, after its grid's arrays are gone", () => {
    const report = grids();
    keepRunPictures(report);
    const ask = { maxBinsX: 7, maxBinsY: 3, metric: "abs" as const, precision: "float32" as const, colourRow: -1 };
    for (const grid of Object.values(report)) {
      if (!grid?.pictureId) throw new Error("every field is kept");
      const { pictureId, ...data } = grid;
      const want = new BatchPictures({ ...data, bound: data.bound ?? undefined }).picture(ask);
      // What the transfer to the page leaves behind: the grid's own arrays are no longer readable here.
      for (const a of [grid.actual, grid.reference, grid.lossMask, grid.lengths]) a.fill(0);
      const got = runPicture(pictureId, ask);
      expect(got?.grid).toEqual(want.grid);
      expect(got?.relFloor).toBe(want.relFloor);
      expect(got?.grid.kind.some((k) => k === 0)).toBe(true); // data bins, not an empty picture
    }
  });

  it("answers null for a replaced report, and refuses a measure it did not keep", () => {
    const first = grids();
    keepRunPictures(first);
    const old = first.returns?.pictureId ?? -1;
    const ask = { maxBinsX: 4, maxBinsY: 2, metric: "abs" as const, precision: "float32" as const, colourRow: -1 };
    expect(runPicture(old, ask)).not.toBeNull();
    expect(() => runPicture(old, { ...ask, metric: "ulp" })).toThrow(/measured in abs, not ulp/);
    const second = grids();
    keepRunPictures(second);
    expect(runPicture(old, ask)).toBeNull();
    expect(runPicture(second.returns?.pictureId ?? -1, ask)).not.toBeNull();
  });
});
