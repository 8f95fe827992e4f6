import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { discountPowers, solve } from "../core";
import { parseCaseFile } from "../io/caseFile";
import { scanCasesOf } from "../io/scanCases";
import { scanDiscount } from "./caseConsistency";
import { caseToProblem } from "./caseProblem";
import { type CaseSolver, type CaseVerdict, checkCases, summaryLine } from "./checkCase";
import { CORE_MODES, coreSolver, MODE_EXPECTATION } from "./coreSolvers";

const file = parseCaseFile(readFileSync(new URL("../../cases/public_cases.json", import.meta.url), "utf8"), "public");
const scans = scanCasesOf(file);

function failures(verdicts: CaseVerdict[]) {
  return verdicts.filter((v) => !v.passed).map((v) => `${v.name}: ${v.maxAbsError} > ${v.tolerance} ${v.detail}`);
}

describe("golden cases from slime's own code", () => {
  it("has all 33 public cases", () => {
    expect(file.cases).toHaveLength(33);
  });

  for (const mode of CORE_MODES) {
    it(`chunked ${mode} passes every case (${MODE_EXPECTATION[mode]})`, async () => {
      const verdicts = await checkCases(file.cases, coreSolver(mode), MODE_EXPECTATION[mode]);
      expect(failures(verdicts)).toEqual([]);
      expect(summaryLine(verdicts)).toBe("33 passed, 0 failed");
    });
  }

  for (const mode of ["float64", "float32"] as const) {
    it(`the serial reference in ${mode} passes every case`, async () => {
      const verdicts = await checkCases(file.cases, coreSolver(mode, "serial"), mode);
      expect(failures(verdicts)).toEqual([]);
    });
  }

  it("float64 serial reproduces `expected` exactly (same operation order)", async () => {
    const verdicts = await checkCases(file.cases, coreSolver("float64", "serial"), "float64");
    expect(verdicts.map((v) => v.maxAbsError)).toEqual(verdicts.map(() => 0));
  });

  it("a wrong answer fails: correctly rounded power tables do not meet slime-exact everywhere", async () => {
    // torch's float32 pow is 1 ulp off for a few powers of 0.99: fl32(fl32(d)^k) tables miss slime's bits.
    const rounded: CaseSolver = (c) => {
      if (c.kind === "convention") throw new Error("no convention cases here");
      const problem = caseToProblem(c, "float32");
      const discount = scanDiscount(c);
      const powTables = discountPowers(discount, Math.max(1, c.params.chunk_size), "float32", "correctly-rounded");
      return solve(problem, "chunked", { powTables }).outputs;
    };
    const verdicts = await checkCases(file.cases, rounded, "bit-exact");
    expect(verdicts.filter((v) => !v.passed).length).toBeGreaterThan(0);
  });

  it("slime-exact without the file's float32_pow_tables (torch's CPU powers, emulated) is bit for bit", async () => {
    const stripped = file.cases.map((c) => ({ ...c, float32_pow_tables: undefined }));
    const verdicts = await checkCases(stripped, coreSolver("slime-exact"), "bit-exact");
    expect(failures(verdicts)).toEqual([]);
    expect(verdicts).toHaveLength(33);
  });

  it("the emulated tables are the files' own, bit for bit", () => {
    for (const c of scans) {
      if (c.kind === "convention" || !c.float32_pow_tables) continue;
      const discount = scanDiscount(c);
      const ours = discountPowers(discount, c.params.chunk_size, "float32");
      expect(Array.from(ours.kernelRow), c.name).toEqual(c.float32_pow_tables.M_row0);
      expect(Array.from(ours.carryPowers), c.name).toEqual(c.float32_pow_tables.pow_vec);
      expect(ours.kernelPatches ?? [], c.name).toEqual([]);
    }
  });
});

describe("library-convention cases from slime's, OpenRLHF's and verl's own code", () => {
  const conventions = parseCaseFile(
    readFileSync(new URL("../../cases/conventions_public.json", import.meta.url), "utf8"),
    "conventions",
  );

  for (const mode of ["float64", "float32"] as const) {
    it(`every library and estimator in ${mode}`, async () => {
      const verdicts = await checkCases(conventions.cases, coreSolver(mode), mode);
      expect(failures(verdicts)).toEqual([]);
      expect(summaryLine(verdicts)).toBe("12 passed, 0 failed");
    });
  }

  it("a misplaced outcome reward fails on reward_index", async () => {
    const c = structuredClone(conventions.cases[0]);
    if (c.kind !== "convention" || !c.reward_index) throw new Error("expected a convention case");
    c.reward_index[0] -= 1;
    const [verdict] = await checkCases([c], coreSolver("float64"), "float64");
    expect(verdict).toMatchObject({
      passed: false,
      detail: expect.stringMatching(/^worst output: reward_index\[0\] is \d+, must be exactly \d+$/),
    });
  });
});
