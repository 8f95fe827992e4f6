import { describe, expect, it } from "vitest";
import {
  firstPicked,
  KL_REPLAY_ENGINE,
  REPLAY_ENGINE,
  type SampleFieldsAnswer,
  STORED_ENGINE,
  sampleSeries,
  tokenFields,
} from "./sampleFields";

const f = (...xs: number[]) => Float64Array.from(xs);

describe("a sample's per-token fields", () => {
  it("gives the chart a grid field's row as the padded grid held it: float32 widened, zeros for what is absent", () => {
    const answer: SampleFieldsAnswer = {
      ok: true,
      sample: 1,
      length: 3,
      fields: { advantages: Float32Array.of(0.1, 0.2, 0.3), kl: Float32Array.of(0.5, 0, 1), loss_masks: f(1, 0, 1) },
      replayed: { advantages: f(1, 2, 3), returns: f(4, 5, 6), kl: null },
      replay: 7,
    };
    const advantages = sampleSeries(answer, { field: "advantages", referenceIs: "replayed" });
    expect(advantages?.reference).toEqual(f(1, 2, 3));
    expect(advantages?.actual).toEqual(Float64Array.from(Float32Array.of(0.1, 0.2, 0.3)));
    expect(advantages?.lossMask).toEqual(Uint8Array.of(1, 0, 1));
    // The dump stores no returns: zeros, as in the grid.
    expect(sampleSeries(answer, { field: "returns", referenceIs: "replayed" })?.actual).toEqual(new Float64Array(3));
    // A KL not recomputed: its reference is zeros, and the chart draws the stored KL alone.
    expect(sampleSeries(answer, { field: "kl", referenceIs: "zero" })?.reference).toEqual(new Float64Array(3));
    // A replayed field whose line did not come: no chart, never a line of zeros passed off as the replay.
    expect(sampleSeries(answer, { field: "kl", referenceIs: "replayed" })).toBeNull();
    expect(sampleSeries({ ...answer, replayed: null }, { field: "advantages", referenceIs: "replayed" })).toBeNull();
  });

  it("lists only the fields the sample has, in order, each line naming its engine", () => {
    const fields = tokenFields(
      { returns: f(1, 1), advantages: f(1, 1), entropy: f(0.5, 0.4), loss_masks: f(1, 0) },
      { advantages: f(1, 1), returns: null, kl: f(0, 0) },
      2,
    );
    expect(fields.map((x) => x.name)).toEqual(["advantages", "returns", "kl", "entropy", "loss_masks"]);
    expect(fields[0].lines.map((l) => [l.role, l.engine])).toEqual([
      ["replayed", REPLAY_ENGINE],
      ["stored", STORED_ENGINE],
    ]);
    expect(fields[1].lines.map((l) => l.role)).toEqual(["stored"]);
    // A KL the replay recomputed but the dump does not store: the replay's line alone.
    expect(fields[2].lines).toEqual([{ values: f(0, 0), engine: KL_REPLAY_ENGINE, role: "replayed" }]);
  });

  it("drops a line whose length is not the sample's (never draws one field against another's tokens)", () => {
    const fields = tokenFields({ advantages: f(1, 2, 3) }, { advantages: f(1, 2), returns: null, kl: null }, 2);
    expect(fields.map((x) => [x.name, x.lines.map((l) => l.role)])).toEqual([["advantages", ["replayed"]]]);
  });

  it("shows the usual fields first, or every field when the sample has none of them", () => {
    const usual = tokenFields(
      { advantages: f(1), values: f(2), loss_masks: f(1) },
      { advantages: null, returns: null, kl: null },
      1,
    );
    expect(firstPicked(usual)).toEqual(["advantages"]);
    const unusual = tokenFields({ values: f(2), loss_masks: f(1) }, { advantages: null, returns: null, kl: null }, 1);
    expect(firstPicked(unusual)).toEqual(["values", "loss_masks"]);
  });
});
