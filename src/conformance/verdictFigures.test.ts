import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildCase } from "../io/caseBuilder";
import { parseCaseFile } from "../io/caseFile";
import type { ScanCase } from "../io/caseSchema";
import { answering, oneRowReturns } from "../testing/verdictKit";
import { caseConsistencyProblems } from "./caseConsistency";
import { type CaseVerdict, checkCase, checkCases } from "./checkCase";
import { CORE_MODES, coreSolver, MODE_EXPECTATION } from "./coreSolvers";

const read = (name: string) =>
  parseCaseFile(readFileSync(new URL(`../../cases/${name}`, import.meta.url), "utf8"), name).cases;
const publicCases = read("public_cases.json");
const conventionCases = read("conventions_public.json");

const FLT_MAX = 3.4028234663852886e38;

/** What a pipeline asserts on a pass: every figure beside its own element's tolerance. */
function figuresMeanWhatTheySay(v: CaseVerdict): string[] {
  const wrong: string[] = [];
  if (!v.passed || v.maxAbsError === null) return wrong;
  if (v.toleranceAtMaxError === null || !(v.maxAbsError <= v.toleranceAtMaxError)) {
    wrong.push(`${v.name}: maxAbsError ${v.maxAbsError} > toleranceAtMaxError ${v.toleranceAtMaxError}`);
  }
  if (v.tolerance === null || !(v.maxAbsError <= v.tolerance)) {
    wrong.push(`${v.name}: maxAbsError ${v.maxAbsError} > tolerance ${v.tolerance}`);
  }
  if (!v.worst || !(v.worst.error <= v.worst.tolerance) || !(v.worst.fraction <= 1)) {
    wrong.push(`${v.name}: worst ${JSON.stringify(v.worst)}`);
  }
  if (v.worst?.fraction !== v.boundFraction) wrong.push(`${v.name}: boundFraction is not worst.fraction`);
  return wrong;
}

describe("a verdict's figures mean what they say", () => {
  for (const mode of CORE_MODES) {
    it(`every public case in --mode ${mode}: the tolerance beside the max abs error is that element's`, async () => {
      const verdicts = await checkCases(publicCases, coreSolver(mode), MODE_EXPECTATION[mode]);
      expect(verdicts.every((v) => v.passed)).toBe(true);
      expect(verdicts.flatMap(figuresMeanWhatTheySay)).toEqual([]);
    });
  }

  it("the library-convention cases too", async () => {
    for (const mode of ["float64", "float32"] as const) {
      const verdicts = await checkCases(conventionCases, coreSolver(mode), mode);
      expect(verdicts.flatMap(figuresMeanWhatTheySay)).toEqual([]);
    }
  });

  it("names the element of the largest error and of the worst fraction, as the file spells them", async () => {
    const c = publicCases.find((x) => x.name === "disc_d0.99_B3_T129_C4");
    if (!c) throw new Error("missing case");
    const v = await checkCase(c, coreSolver("float32"), "float32");
    expect(v.maxErrorElement).toMatch(/^returns\[\d+\]$/);
    expect(v.worst?.element).toMatch(/^returns\[\d+\]$/);
    const ragged = publicCases.find((x) => x.name === "rpp_varlen_holes_g0.99");
    if (!ragged) throw new Error("missing case");
    const r = await checkCase(ragged, coreSolver("float32"), "float32");
    expect(r.worst?.element).toMatch(/^(returns|token_level_rewards)\[\d\]\[\d+\]$/);
  });

  it("a float64 token of 1e308, computed exactly, passes: its bound does not overflow", async () => {
    for (const discount of [0.5, 0.99, 1]) {
      const v = await checkCase(float64Case([1e308], discount), coreSolver("float64"), "float64");
      expect(v, v.detail).toMatchObject({ passed: true, maxAbsError: 0 });
      expect(Number.isFinite(v.toleranceAtMaxError)).toBe(true);
    }
    const near = float64Case([6e307, 6e307, 1], 0.5);
    const v = await checkCase(near, coreSolver("float64"), "float64");
    expect(v, v.detail).toMatchObject({ passed: true });
  });
});

/** A one-row discounted case with float64 inputs float32 cannot hold (buildCase rounds to float32). */
function float64Case(rewards: number[], discount: number): ScanCase {
  const returns = [...rewards];
  for (let t = returns.length - 2; t >= 0; t--) returns[t] = rewards[t] + discount * returns[t + 1];
  return {
    name: "float64 only",
    kind: "discounted",
    note: "",
    seed: 0,
    max_abs_err_float32: null,
    shape: [1, rewards.length],
    params: { discount, chunk_size: 128 },
    inputs: { rewards },
    expected: { returns },
    chunked_float32: { returns },
  } as ScanCase;
}

describe("a non-finite result where the truth is finite is over its tolerance", () => {
  it("[FLT_MAX, FLT_MAX, 1, 1] at γ = 1 in float32: Infinity at token 0 fails, named", async () => {
    const c = buildCase(oneRowReturns([FLT_MAX, FLT_MAX, 1, 1], 1), "flt_max");
    const v = await checkCase(c, coreSolver("float32"), "float32");
    expect(v.passed).toBe(false);
    expect(v.maxAbsError).toBe(Number.POSITIVE_INFINITY);
    expect(v.worst).toMatchObject({ element: "returns[0]", fraction: Number.POSITIVE_INFINITY });
    expect(v.detail).toMatch(/^worst output: returns\[0\] is Infinity where 6\.8\d*e\+38 was expected/);
  });

  it("NaN fails with its place named, and keeps the figures of the elements before it", async () => {
    const c = buildCase(oneRowReturns([1, 2, 3], 0), "nan");
    const v = await checkCase(c, answering([1, Number.NaN, 3]), "float32");
    expect(v).toMatchObject({ passed: false, maxAbsError: Number.POSITIVE_INFINITY, maxErrorElement: "returns[1]" });
    expect(v.detail).toContain("returns[1] is NaN where 2 was expected");
  });
});

describe("no verdict for numbers that were not checked", () => {
  it("an empty batch passes with no figures and says that nothing was compared", async () => {
    const empty = buildCase(oneRowReturns([], 0.5), "empty") as ScanCase;
    const v = await checkCase(empty, coreSolver("float64"), "float64");
    expect(v).toMatchObject({ passed: true, compared: 0, maxAbsError: null, toleranceAtMaxError: null, worst: null });
    expect(v.detail).toBe("no values to compare (an empty batch)");
  });

  it("a GAE case whose expected.deltas are not its inputs' TD residuals is refused", () => {
    const gae = structuredClone(publicCases.find((c) => c.kind === "gae"));
    if (gae?.kind !== "gae" || !gae.expected?.deltas) throw new Error("missing GAE case");
    gae.expected.deltas = gae.expected.deltas.map(() => 0);
    expect(caseConsistencyProblems([gae])).toEqual([
      expect.stringMatching(
        /^cases\[0\] \("gae_[^"]+"\)\.expected\.deltas\[0\] \(row 0, token 0\): 0 is not r \+ gamma·V_next − V = /,
      ),
    ]);
    const nudged = structuredClone(publicCases.find((c) => c.kind === "gae"));
    if (nudged?.kind !== "gae" || !nudged.expected?.deltas) throw new Error("missing GAE case");
    nudged.expected.deltas[7] += 1e-9;
    expect(caseConsistencyProblems([nudged])).toHaveLength(1);
  });
});
