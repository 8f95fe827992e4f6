import { describe, expect, it } from "vitest";
import { checkCase, coreSolver } from "../conformance";
import { parseCaseFile } from "./caseFile";
import { importCaseFile } from "./caseImport";
import { exportConventionCase } from "./conventionCaseExport";
import { openConventionCase } from "./conventionCaseImport";
import { materializeRows } from "./playgroundProblem";
import type { ConventionLibrary, PlaygroundState } from "./playgroundState";
import { BASE_SETTINGS } from "./presets";
import { scanCasesOf } from "./scanCases";

/** Ragged multi-turn rows with masked holes in the middle, as the playground's preset draws them. */
function multiTurn(estimator: "reinforce_pp" | "gae", library: ConventionLibrary, normalize: boolean): PlaygroundState {
  return {
    ...BASE_SETTINGS,
    estimator,
    gamma: 0.99,
    lambd: 0.95,
    klCoef: 0.05,
    data: { source: "preset", preset: "multi-turn", seed: 3, rows: 4, tokens: 90, ragged: true },
    convention: { library, compare: [], normalize, rewardClip: [-0.5, 0.5] },
  };
}

const LIBRARIES: ConventionLibrary[] = ["slime", "openrlhf", "verl"];

describe("exportConventionCase", () => {
  for (const estimator of ["reinforce_pp", "gae"] as const) {
    for (const library of LIBRARIES) {
      it(`writes a ${library} ${estimator} case that scanlab check passes in float64 and float32`, async () => {
        const exported = exportConventionCase(multiTurn(estimator, library, true));
        if (!exported.ok) throw exported.error;
        const file = parseCaseFile(exported.value.text, "exported.json");
        const c = file.cases[0];
        expect(c.kind).toBe("convention");
        if (c.kind !== "convention") return;
        expect(c.library).toBe(library);
        expect(c.estimator).toBe(estimator);
        expect(c.lengths).toHaveLength(4);
        for (const mode of ["float64", "float32"] as const) {
          const verdict = await checkCase(c, coreSolver(mode), mode);
          expect(verdict.passed, `${mode}: ${verdict.detail}`).toBe(true);
          expect(verdict.boundFraction).not.toBeNull();
        }
      });
    }
  }

  it("records OpenRLHF's clip, and the clipped outcome in its token rewards", () => {
    const state = multiTurn("reinforce_pp", "openrlhf", false);
    const exported = exportConventionCase(state);
    if (!exported.ok) throw exported.error;
    const c = exported.value.file.cases[0];
    if (c.kind !== "convention" || !c.expected || !c.reward_index) throw new Error("expected a convention case");
    expect(c.params.reward_clip_range).toEqual([-0.5, 0.5]);
    const rows = materializeRows(state);
    const at = c.reward_index[0];
    const kl = rows[0].kl?.[at] ?? 0;
    // Outcome ±1 clipped to ±0.5, plus −β·kl on that token.
    expect(c.expected.token_level_rewards[0][at]).toBeCloseTo(Math.sign(rows[0].outcome ?? 0) * 0.5 - 0.05 * kl, 12);
  });

  it("a case whose numbers were tampered with fails the check", async () => {
    const exported = exportConventionCase(multiTurn("reinforce_pp", "verl", false));
    if (!exported.ok) throw exported.error;
    const c = structuredClone(exported.value.file.cases[0]);
    if (c.kind !== "convention" || !c.expected) throw new Error("expected a convention case");
    c.expected.returns[1][3] += 1e-3;
    const verdict = await checkCase(c, coreSolver("float64"), "float64");
    expect(verdict.passed).toBe(false);
  });

  it("turns inputs the library rejects into a case that expects the error", async () => {
    const state: PlaygroundState = {
      ...multiTurn("reinforce_pp", "slime", false),
      data: {
        source: "inline",
        rows: [
          { length: 3, kl: [0.1, 0.2, 0.3], lossMask: [1, 1, 0], outcome: 1 },
          { length: 2, kl: [0.1, 0.1], lossMask: [0, 0], outcome: -1 },
        ],
      },
    };
    const exported = exportConventionCase(state);
    if (!exported.ok) throw exported.error;
    const c = scanCasesOf(exported.value.file)[0];
    expect(c.expect_error).toBe("AssertionError: Sequence at index 1 is fully masked.");
    expect((await checkCase(c, coreSolver("float64"), "float64")).passed).toBe(true);
  });

  it("refuses NaN and ±Inf inputs, naming lane, row and token, instead of writing them as null", () => {
    const state = multiTurn("gae", "verl", false);
    const rows = materializeRows(state);
    rows[2] = { ...rows[2], kl: (rows[2].kl ?? []).map((x, t) => (t === 7 ? Number.NaN : x)) };
    rows[1] = { ...rows[1], outcome: Number.POSITIVE_INFINITY };
    const exported = exportConventionCase({ ...state, data: { source: "inline", rows } });
    expect(exported.ok).toBe(false);
    if (!exported.ok) {
      expect(exported.error.message).toContain(
        "cannot hold non-finite inputs (kl: NaN at row 2, token 7; outcome: Infinity at row 1)",
      );
    }
  });

  it("refuses plain discounted returns, which have no convention", () => {
    const exported = exportConventionCase({ ...multiTurn("gae", "slime", false), estimator: "discounted" });
    expect(exported.ok).toBe(false);
    if (!exported.ok) expect(exported.error.message).toMatch(/REINFORCE\+\+ or GAE/);
  });
});

describe("a convention case round-trips through the case import", () => {
  for (const estimator of ["reinforce_pp", "gae"] as const) {
    it(`${estimator}: opening the exported file and exporting again gives the same case`, () => {
      const state = multiTurn(estimator, "openrlhf", true);
      const exported = exportConventionCase(state);
      if (!exported.ok) throw exported.error;
      const imported = importCaseFile(exported.value.text, "exported.json");
      if (!imported.ok) throw imported.error;
      const c = imported.value.file.cases[0];
      if (c.kind !== "convention") throw new Error("expected a convention case");
      const opened = openConventionCase(c, 0, { ...BASE_SETTINGS, data: state.data });
      if (!opened.ok) throw opened.error;
      const reopened = opened.value;
      expect(reopened.estimator).toBe(estimator);
      expect(reopened.convention).toEqual({
        library: "openrlhf",
        compare: [],
        normalize: true,
        rewardClip: [-0.5, 0.5],
      });
      const rows = materializeRows(state);
      const back = materializeRows(reopened);
      expect(back.map((r) => r.length)).toEqual(rows.map((r) => r.length));
      expect(back.map((r) => r.lossMask)).toEqual(rows.map((r) => r.lossMask));
      const again = exportConventionCase(reopened);
      if (!again.ok) throw again.error;
      const [first, second] = [exported.value.file.cases[0], again.value.file.cases[0]];
      expect({ ...second, note: "" }).toEqual({ ...first, note: "" });
    });
  }
});
