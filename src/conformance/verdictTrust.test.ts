import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type ScanProblem, solve } from "../core";
import { buildCase } from "../io/caseBuilder";
import { parseCaseFile } from "../io/caseFile";
import type { ScanCase } from "../io/caseSchema";
import { scanCasesOf } from "../io/scanCases";
import { answering, oneRowReturns } from "../testing/verdictKit";
import { caseConsistencyProblems } from "./caseConsistency";
import { checkCase, type Expectation } from "./checkCase";
import { coreSolver } from "./coreSolvers";

const publicCases = scanCasesOf(
  parseCaseFile(readFileSync(new URL("../../cases/public_cases.json", import.meta.url), "utf8"), "public"),
);

async function judge(c: ScanCase, returns: number[], expectation: Expectation = "float32") {
  return checkCase(c, answering(returns), expectation);
}

describe("every output is held to its own bound", () => {
  const c = buildCase(oneRowReturns([1e6, 1, 2, 3], 0), "one large reward");

  it("fails outputs that are 50–150 % wrong beside a large one (discount 0)", async () => {
    for (const expectation of ["float32", "float64"] as const) {
      const verdict = await judge(c, [1e6, 2.5, 3.5, 4.5], expectation);
      expect(verdict.passed).toBe(false);
      expect(verdict.detail).toMatch(/^worst output: returns\[1\] is off by/);
      expect(verdict.boundFraction).toBeGreaterThan(1e6);
    }
  });

  it("passes the exact answer with a fraction of 0, and reports the bound", async () => {
    const verdict = await judge(c, [1e6, 1, 2, 3]);
    expect(verdict).toMatchObject({ passed: true, maxAbsError: 0, boundFraction: 0 });
  });

  it("a one-ulp float32 error in the smallest output passes, ten thousand ulps do not", async () => {
    const rewards = [1e6, 1, 2, 3];
    const c99 = buildCase(oneRowReturns(rewards, 0.99), "decaying");
    const truth = solve(oneRowReturns(rewards, 0.99), "serial").outputs;
    if (truth.kind !== "discounted") throw new Error("expected returns");
    const last = truth.returns[3];
    const ulp = 2 ** -21; // float32 spacing at 3
    const near = Array.from(truth.returns.slice(0, 3)).concat(last + ulp);
    expect((await judge(c99, near)).passed).toBe(true);
    const far = Array.from(truth.returns.slice(0, 3)).concat(last + 1e4 * ulp);
    expect((await judge(c99, far)).passed).toBe(false);
  });

  it("a file's tolerance tightens the bound but never loosens it", async () => {
    const loose = { ...c, tolerance: { float64: 1e9, float32: 1e9 } };
    expect((await judge(loose, [1e6, 2.5, 3.5, 4.5])).passed).toBe(false);
    const tight = { ...c, tolerance: { float64: 0, float32: 0 } };
    // Within the bound (one float32 conversion of 3: 1.8e-7) but not within a zero tolerance.
    expect((await judge(tight, [1e6, 1, 2, 3 + 1e-7])).passed).toBe(false);
    expect((await judge(c, [1e6, 1, 2, 3 + 1e-7])).passed).toBe(true);
  });

  it("NaN and a wrong number of values fail with their place named", async () => {
    expect((await judge(c, [1e6, Number.NaN, 2, 3])).detail).toContain("returns[1] is NaN where 1 was expected");
    expect((await judge(c, [1e6, 1, 2])).detail).toBe("returns: 3 values, expected 4");
  });

  it("every public golden case passes with margin in float64 and float32, chunked and serial", async () => {
    for (const [mode, method] of [
      ["float64", "chunked"],
      ["float32", "chunked"],
      ["float32", "serial"],
    ] as const) {
      for (const golden of publicCases) {
        const verdict = await checkCase(golden, coreSolver(mode, method), mode, method);
        expect(verdict.passed, `${golden.name} ${mode} ${method}: ${verdict.detail}`).toBe(true);
        if (verdict.boundFraction !== null) expect(verdict.boundFraction).toBeLessThan(0.5);
      }
    }
  });
});

describe("case files must agree with themselves", () => {
  const golden = publicCases.find((c) => c.name === "disc_d0.99_B3_T129_C128");
  if (!golden?.float32_pow_tables) throw new Error("missing golden case");

  it("the public files are consistent", () => {
    expect(caseConsistencyProblems(publicCases)).toEqual([]);
  });

  it("rejects a table of zeros, naming the table and index", () => {
    const tables = golden.float32_pow_tables;
    if (!tables) throw new Error("missing tables");
    const zeros = { ...golden, float32_pow_tables: { ...tables, pow_vec: tables.pow_vec.map(() => 0) } };
    expect(caseConsistencyProblems([zeros])).toEqual([
      expect.stringMatching(
        /^cases\[0\] \("disc_d0\.99_B3_T129_C128"\)\.float32_pow_tables\.pow_vec\[0\]: 0 is not d\^1/,
      ),
    ]);
  });

  it("writes, checks and replays torch's non-Toeplitz kernel entries (M_patches)", async () => {
    // d = 0.5495936876730595, C = 37: torch's scalar tail rounds M[32][36] = d^4 unlike row 0.
    let seed = 3;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return (seed / 2 ** 31) * 2 - 1;
    };
    const rewards = { rows: 2, cols: 600, data: Float64Array.from({ length: 1200 }, next) };
    const problem: ScanProblem = { kind: "discounted", rewards, discount: 0.5495936876730595, chunkSize: 37 };
    const c = buildCase(problem, "patched");
    expect(c.float32_pow_tables?.M_patches).toEqual([[32, 36, Math.fround(0.09123615)]]);
    expect(caseConsistencyProblems([c])).toEqual([]);
    expect((await checkCase(c, coreSolver("slime-exact"), "bit-exact")).passed).toBe(true);
    // Without the patch the replay of the file's own tables is not slime's bits.
    const tables = c.float32_pow_tables;
    if (!tables) throw new Error("missing tables");
    const unpatched = { ...c, float32_pow_tables: { M_row0: tables.M_row0, pow_vec: tables.pow_vec } };
    expect((await checkCase(unpatched, coreSolver("slime-exact"), "bit-exact")).passed).toBe(false);
    const wrong = { ...c, float32_pow_tables: { ...tables, M_patches: [[32, 36, 0.5]] as [number, number, number][] } };
    expect(caseConsistencyProblems([wrong])[0]).toMatch(/M_patches\[0\]: M\[32\]\[36\] = 0\.5 is not d\^4/);
  });

  it("rejects a discount edited after the tables were written", () => {
    if (golden.kind !== "discounted") throw new Error("expected a discounted case");
    const edited = { ...golden, params: { ...golden.params, discount: 0.98 } };
    expect(caseConsistencyProblems([edited])[0]).toMatch(/float32_pow_tables\.M_row0\[1\]: .* d = 0\.98/);
  });

  it("accepts a table one ulp off (torch's float32 pow), rejects one many ulps off", () => {
    const tables = golden.float32_pow_tables;
    if (!tables) throw new Error("missing tables");
    const nudge = (ulps: number) => {
      const row = [...tables.M_row0];
      row[5] = row[5] * (1 + ulps * 2 ** -23);
      return { ...golden, float32_pow_tables: { ...tables, M_row0: row } };
    };
    expect(caseConsistencyProblems([nudge(1)])).toEqual([]);
    expect(caseConsistencyProblems([nudge(64)])).toHaveLength(1);
  });

  it("rejects a GAE discount that contradicts gamma·lambd", () => {
    const gae = publicCases.find((c) => c.kind === "gae" && c.params.lambd === 0.95);
    if (gae?.kind !== "gae") throw new Error("missing GAE case");
    const edited = { ...gae, params: { ...gae.params, discount: 0.5 }, float32_pow_tables: undefined };
    expect(caseConsistencyProblems([edited])).toEqual([
      expect.stringMatching(/params\.discount: 0\.5 contradicts gamma·lambd = 0\.99·0\.95/),
    ]);
  });
});

describe("float32 modes name an input float32 cannot hold", () => {
  it("in a library-convention case too", async () => {
    const conventions = parseCaseFile(
      readFileSync(new URL("../../cases/conventions_public.json", import.meta.url), "utf8"),
      "conventions",
    ).cases;
    const c = structuredClone(conventions[0]);
    if (c.kind !== "convention") throw new Error("expected a convention case");
    c.inputs.kl[0][1] = 1e308;
    const verdict = await checkCase(c, coreSolver("float32"), "float32");
    expect(verdict).toMatchObject({
      passed: false,
      detail: expect.stringContaining("inputs.kl[0][1]: 1e+308 overflows float32"),
    });
  });
});
