import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type CaseVerdict, checkCases } from "../conformance";
import { unseenConventionFile } from "../conformance/conventionTestCases";
import { parseCaseFile } from "../io/caseFile";
import { scanCasesOf } from "../io/scanCases";
import { runsOn, STRATEGIES, STRATEGY_ALGORITHM } from "../names/strategies";
import { tfjsCpuSolver } from "./tfjsSolver";

const publicFile = parseCaseFile(
  readFileSync(new URL("../../cases/conventions_public.json", import.meta.url), "utf8"),
  "conventions_public.json",
);
const unseen = parseCaseFile(JSON.stringify(unseenConventionFile()), "unseen_conventions.json");

const failures = (verdicts: CaseVerdict[]) => verdicts.filter((v) => !v.passed).map((v) => `${v.name}: ${v.detail}`);

describe("library-convention cases on the tfjs engine (cpu), as scanlab check --engine tfjs runs them", () => {
  for (const strategy of STRATEGIES.filter((s) => runsOn(s, "cpu"))) {
    it(`passes the public and unseen convention files with the ${strategy} strategy`, async () => {
      const solver = await tfjsCpuSolver(strategy);
      const cases = [...publicFile.cases, ...unseen.cases];
      const verdicts = await checkCases(cases, solver, "float32", undefined, STRATEGY_ALGORITHM[strategy]);
      expect(failures(verdicts)).toEqual([]);
      expect(scanCasesOf(unseen).some((c) => c.expect_error !== undefined)).toBe(true);
      // Held to the engine's bound, not judged "core only": every number was compared.
      for (const v of verdicts.filter((x) => x.maxAbsError !== null)) expect(v.boundFraction).toBeLessThanOrEqual(1);
    });
  }

  it("fails a convention whose numbers are another library's", async () => {
    const solver = await tfjsCpuSolver("chunked");
    const verl = publicFile.cases.find((c) => c.name === "verl_rpp_g1_raw");
    const slime = publicFile.cases.find((c) => c.name === "slime_rpp_g1_raw");
    if (verl?.kind !== "convention" || slime?.kind !== "convention" || !verl.expected || !slime.expected) {
      throw new Error("the public file changed");
    }
    const wrong = { ...verl, expected: { ...verl.expected, returns: slime.expected.returns } };
    const [verdict] = await checkCases([wrong], solver, "float32", undefined, "chunked");
    expect(verdict.passed).toBe(false);
    expect(verdict.detail).toMatch(/^worst output: returns\[\d+\]/);
  });
});
