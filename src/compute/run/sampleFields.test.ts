import { describe, expect, it } from "vitest";
import type { RunGrid } from "./runGrid";
import { firstPicked, KL_REPLAY_ENGINE, REPLAY_ENGINE, replayedRow, STORED_ENGINE, tokenFields } from "./sampleFields";

const f = (...xs: number[]) => Float64Array.from(xs);

function grid(field: RunGrid["field"], referenceIs: RunGrid["referenceIs"]): RunGrid {
  // Two samples of 2 and 3 tokens, padded to 3.
  return {
    field,
    referenceIs,
    rows: 2,
    cols: 3,
    lengths: Int32Array.from([2, 3]),
    actual: new Float64Array(6),
    reference: f(1, 2, 0, 3, 4, 5),
    bound: null,
    lossMask: new Uint8Array(6),
  };
}

describe("a sample's per-token fields", () => {
  it("takes the sample's row of a grid's reference, without its padding", () => {
    expect([...(replayedRow(grid("advantages", "replayed"), 0) ?? [])]).toEqual([1, 2]);
    expect([...(replayedRow(grid("advantages", "replayed"), 1) ?? [])]).toEqual([3, 4, 5]);
    expect(replayedRow(grid("advantages", "replayed"), 2)).toBeNull();
    // A KL that was not recomputed has no replayed line: its grid's reference is zeros, not a replay.
    expect(replayedRow(grid("kl", "zero"), 1)).toBeNull();
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
