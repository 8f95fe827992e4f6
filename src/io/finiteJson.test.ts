import { describe, expect, it } from "vitest";
import { exportCase } from "./caseExport";
import { parseCaseFile } from "./caseFile";
import { exportConventionCase } from "./conventionCaseExport";
import { firstNonFinite } from "./finiteJson";
import { FLOAT32_MAX, type PlaygroundState } from "./playgroundState";
import { BASE_SETTINGS } from "./presets";

const inline = (estimator: PlaygroundState["estimator"], rows: PlaygroundState["data"], settings = {}) =>
  ({ ...BASE_SETTINGS, estimator, gamma: 1, lambd: 1, chunkSize: 4, ...settings, data: rows }) as PlaygroundState;

/** Finite float32 inputs whose float32 scan overflows: FLT_MAX twice, summed with γ = 1. */
const overflowing = inline("discounted", {
  source: "inline",
  rows: [{ length: 6, rewards: [FLOAT32_MAX, FLOAT32_MAX, 1, 2, 3, 4] }],
});

describe("the first NaN or ±Infinity of what a writer is about to write as JSON", () => {
  it("names its path, in nested objects and arrays", () => {
    expect(firstNonFinite({ a: [1, 2], b: { c: [[0], [3, Number.NaN]] } })).toBe("b.c[1][1] (NaN)");
    expect(firstNonFinite({ cases: [{ x: [Infinity] }] })).toBe("cases[0].x[0] (Infinity)");
    expect(firstNonFinite({ a: [1, -0, 3.4e38], s: "NaN", n: null })).toBeNull();
  });
});

describe("case files never hold the null JSON writes for NaN and ±Infinity", () => {
  it("refuses, naming the element, a case whose float32 result overflows (it wrote null, which scanlab check refused)", () => {
    const exported = exportCase(overflowing);
    expect(exported.ok).toBe(false);
    if (exported.ok) return;
    expect(exported.error.message).toContain("cases[0].chunked_float32.returns[0] (Infinity) is not a finite number");
    expect(exported.error.message).toContain("the CSV and pytest exports carry NaN and ±inf");
  });

  it("refuses a GAE case whose float32 TD residuals overflow to NaN", () => {
    const gae = inline("gae", {
      source: "inline",
      rows: [{ length: 4, rewards: [3e38, 3e38, -3e38, 1], values: [3e38, -3e38, 3e38, 1] }],
    });
    const exported = exportCase(gae);
    expect(exported.ok).toBe(false);
  });

  it("refuses a convention case whose library's float32 run overflows", () => {
    const rpp = inline(
      "reinforce_pp",
      {
        source: "inline",
        rows: [{ length: 4, outcome: 3e38, kl: [-3e38, -3e38, 1, 1] }],
      },
      { klCoef: 1 },
    );
    const exported = exportConventionCase(rpp);
    expect(exported.ok).toBe(false);
    if (!exported.ok) expect(exported.error.message).toContain("(Infinity) is not a finite number");
  });

  it("writes the largest finite case and reads it back", () => {
    const largest = inline("discounted", {
      source: "inline",
      rows: [{ length: 4, rewards: [FLOAT32_MAX, -FLOAT32_MAX, FLOAT32_MAX, 1] }],
    });
    const exported = exportCase(largest);
    expect(exported.ok).toBe(true);
    if (!exported.ok) return;
    expect(exported.value.text).not.toContain("null");
    expect(parseCaseFile(exported.value.text, "exported.json").cases[0].name).toBe("playground_discounted_B1_T4");
  });
});
