import { describe, expect, it } from "vitest";
import { BatchPictures, type PictureAsk } from "../heatmap/picture";
import { conventionReference } from "./conventionRun";
import { DifferencePictures, paddedMasks } from "./differencePictures";

/** Two ragged rows: row 0 has a hole at 3–5 and a masked tail at 9. */
const masks = [Uint8Array.from([1, 1, 1, 0, 0, 0, 1, 1, 1, 0]), Uint8Array.from([1, 1, 1, 1])];
const kl = [
  [0.1, 0.2, 0.1, 0.5, 0.5, 0.5, 0.1, 0.2, 0.1, 0.3],
  [0.1, 0.1, 0.1, 0.1],
];

function reference() {
  return conventionReference({
    estimator: "reinforce_pp",
    libraries: ["slime", "verl", "openrlhf"],
    batch: { rewards: [1, -1], kl: kl.map((row) => Float64Array.from(row)), lossMasks: masks },
    params: { gamma: 0.9, lambd: 0.8, klCoef: 0.1, normalize: false, rewardClipRange: [-10, 10] },
  });
}

const ask: PictureAsk = { maxBinsX: 6, maxBinsY: 2, metric: "abs", precision: "float64", colourRow: -1 };

describe("the difference heatmap's pictures in the convention worker", () => {
  it("pools |other − shown| as the page pooled the same tables, masks padded as the editor's", () => {
    const ref = reference();
    const pictures = new DifferencePictures();
    pictures.keep(3, ref, masks);
    const [shown, verl] = ref.runs;
    if (!shown.ok || !verl.ok) throw new Error("a library refused");
    // The page's table of the rows' masks (maskTable): row-major, 0 in the padding.
    const pageMask = Uint8Array.from([1, 1, 1, 0, 0, 0, 1, 1, 1, 0, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0]);
    expect(paddedMasks(masks, ref.lengths, ref.cols)).toEqual(pageMask);
    const want = new BatchPictures({
      rows: ref.rows,
      cols: ref.cols,
      lengths: ref.lengths,
      reference: shown.tables.returns,
      actual: verl.tables.returns,
      lossMask: pageMask,
    }).picture(ask);
    const got = pictures.picture(3, "verl", "returns", ask);
    expect(got?.grid).toEqual(want.grid);
    expect(got?.pixels).toEqual(want.pixels);
    expect(got?.grid.masked.some((m) => m === 1)).toBe(true);
    // verl cuts the return at the hole: the difference is not all zero.
    expect(got?.domain.max).toBeGreaterThan(0);
  });

  it("answers null for an older run or a library not compared with the one shown, and sends the last ask with the next run", () => {
    const pictures = new DifferencePictures();
    pictures.keep(1, reference(), masks);
    expect(pictures.expected()).toBeNull();
    expect(pictures.picture(1, "slime", "returns", ask)).toBeNull();
    const asked = { ...ask, maxBinsX: 4 };
    const first = pictures.picture(1, "openrlhf", "advantages", asked);
    expect(first).not.toBeNull();
    pictures.keep(2, reference(), masks);
    expect(pictures.picture(1, "openrlhf", "advantages", asked)).toBeNull();
    const sent = pictures.expected();
    expect(sent?.other).toBe("openrlhf");
    expect(sent?.output).toBe("advantages");
    expect(sent?.ask).toEqual(asked);
    expect(sent?.picture.grid).toEqual(first?.grid);
  });
});
