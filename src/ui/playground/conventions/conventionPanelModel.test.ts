import { describe, expect, it } from "vitest";
import {
  type ConventionRequest,
  conventionReference,
  float32Batch,
  runLibrary,
} from "../../../compute/conventions/conventionRun";
import { summarize } from "../../../compute/conventions/conventionSummary";
import type { ConventionView } from "../../../compute/conventions/conventionView";
import { checkFloat32 } from "../../../compute/conventions/float32Check";
import type { Library } from "../../../core";
import { checkSentence, overlayLines } from "./conventionPanelModel";

const masks = [
  [1, 1, 0, 0, 1, 1],
  [1, 0, 1],
];

function request(libraries: Library[], lossMasks: number[][] = masks): ConventionRequest {
  return {
    estimator: "reinforce_pp",
    libraries,
    batch: {
      rewards: [1, -0.5],
      kl: [Float64Array.from([0.1, 0.2, 0.3, 0.4, 0.5, 0.25]), Float64Array.from([0.5, 0.5, 0.125])],
      lossMasks,
    },
    params: { gamma: 0.9, klCoef: 0.1, normalize: false, rewardClipRange: null },
  };
}

/** The view the panel draws, computed as the page computes it (core float32 for the float32 run). */
function viewOf(r: ConventionRequest): ConventionView {
  const reference = conventionReference(r);
  const run = runLibrary(
    r.libraries[0],
    r.estimator,
    float32Batch(r.batch),
    r.params,
    new Float32Array(0),
    r.allowNonFinite,
  );
  return {
    ...reference,
    ...summarize(r, reference, run, 0),
    estimator: r.estimator,
    libraries: r.libraries,
    float32: { run, backend: "core float32", millis: 1 },
    input: {} as ConventionView["input"],
    id: 1,
  };
}

describe("conventionReference", () => {
  it("pads each library's outputs into [rows, max length] tables", () => {
    const reference = conventionReference(request(["verl", "slime"]));
    expect(reference).toMatchObject({ rows: 2, cols: 6, lengths: [6, 3] });
    const [verl, slime] = reference.runs;
    if (!verl.ok || !slime.ok) throw new Error("expected both to run");
    expect(verl.tables.returns).toHaveLength(12);
    // Padding past row 1's length stays 0.
    expect(Array.from(slime.tables.returns.subarray(9, 12))).toEqual([0, 0, 0]);
    // verl cuts the carry at token 3 of row 0: token 1 sees none of the outcome; slime's does.
    expect(verl.tables.returns[1]).toBeCloseTo(-0.02, 12);
    expect(slime.tables.returns[1]).toBeGreaterThan(0.5);
  });

  it("reports a library that refuses the input instead of throwing", () => {
    const reference = conventionReference(
      request(
        ["slime", "verl"],
        [
          [1, 1, 0, 0, 1, 1],
          [0, 0, 0],
        ],
      ),
    );
    expect(reference.runs[0]).toEqual({
      library: "slime",
      ok: false,
      error: "AssertionError: Sequence at index 1 is fully masked.",
    });
    expect(reference.runs[1].ok).toBe(true);
    expect(reference.bound).toBeNull();
    expect(checkSentence({ ...viewOf(request(["verl"])), runs: reference.runs })).toBe(
      "slime refuses these inputs: AssertionError: Sequence at index 1 is fully masked.",
    );
  });
});

describe("the float32 check", () => {
  it("passes core's float32 run and says so with its figures", () => {
    const view = viewOf(request(["slime"]));
    expect(view.check?.overBound).toBe(0);
    expect(view.check?.cells).toBe(27);
    expect(checkSentence(view)).toMatch(
      /^slime in float32 \(core float32\) against float64: max \|float32 − float64\| \S+ over 27 values, every one within its own error bound \(worst: \S+ of it\)\.$/,
    );
  });

  it("catches a float32 result off by more than its bound, and a NaN", () => {
    const view = viewOf(request(["verl"]));
    const run = view.float32?.run;
    const shown = view.runs[0];
    if (!run?.ok || !shown.ok || !view.bound) throw new Error("expected runs");
    const wrong = { ...run.tables, returns: run.tables.returns.slice() };
    wrong.returns[2] += 1e-3;
    const check = checkFloat32(shown.tables, wrong, view.bound, view.lengths, view.cols);
    expect(check.overBound).toBe(1);
    expect(check.worst).toEqual({ output: "returns", row: 0, token: 2 });
    expect(checkSentence({ ...view, check })).toMatch(/▲ 1 over their error bound\.$/);
    wrong.advantages = wrong.advantages.slice();
    wrong.advantages[7] = Number.NaN;
    expect(Number.isNaN(checkFloat32(shown.tables, wrong, view.bound, view.lengths, view.cols).maxAbs)).toBe(true);
  });
});

describe("the float32 check with NaN and ±Inf in the inputs", () => {
  it("leaves the elements they took out, counts them per side, and judges the rest", () => {
    const r = request(["slime"]);
    // Infinite KL at token 1 of row 1 (a masked token): −β·(∞·0) is NaN in slime's token rewards.
    r.batch.kl[1] = Float64Array.from([0.5, Number.POSITIVE_INFINITY, 0.125]);
    expect(conventionReference(r).runs[0].ok).toBe(false);
    const view = viewOf({ ...r, allowNonFinite: true });
    const check = view.check;
    if (!check) throw new Error("expected a check");
    // slime scans the padded batch at once: row 1 loses its 3 returns, 3 advantages and 1 token reward.
    expect(check.nonFinite).toEqual({ float64: 7, float32: 7, both: 7 });
    expect(check.cells).toBe(27 - 7);
    expect(check.overBound).toBe(0);
    expect(checkSentence(view)).toMatch(
      /^slime in float32 \(core float32\) against float64: max \|float32 − float64\| \S+ over 20 values where both are finite, every one within its own error bound \(worst: \S+ of it\)\. NaN \/ ∞ elements, left out: 7 \(float64 7, float32 7, both 7\)\.$/,
    );
  });
});

describe("overlayLines", () => {
  it("draws every library in float64 when comparing, the row's tokens only", () => {
    const lines = overlayLines(viewOf(request(["slime", "openrlhf", "verl"])), 1, "returns");
    expect(lines.map((l) => l.label)).toEqual(["slime float64", "OpenRLHF float64", "verl float64"]);
    expect(lines.every((l) => l.values.length === 3)).toBe(true);
    // Each library has its own dash, so the lines differ without colour.
    expect(new Set(lines.map((l) => l.dash ?? "solid")).size).toBe(3);
  });

  it("draws the library shown in float64 and float32 when nothing is compared", () => {
    const lines = overlayLines(viewOf(request(["verl"])), 0, "advantages");
    expect(lines.map((l) => l.label)).toEqual(["verl float64", "verl float32 (core float32)"]);
    expect(lines[1].values).toBeInstanceOf(Float32Array);
  });
});
