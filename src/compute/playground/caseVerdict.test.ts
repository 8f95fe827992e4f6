import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { caseToProblem } from "../../conformance/caseProblem";
import { type ScanOutputs, solve } from "../../core";
import { parseCaseFile } from "../../io/caseFile";
import type { ScanCase } from "../../io/caseSchema";
import type { PlaygroundPrecision } from "../../io/playgroundState";
import { scanCasesOf } from "../../io/scanCases";
import { caseVerdictText, type JudgedRun, judgeOpenCase } from "./caseVerdict";
import { outputTables } from "./outputTables";

const publicCases = scanCasesOf(
  parseCaseFile(readFileSync(new URL("../../../cases/public_cases.json", import.meta.url), "utf8"), "public"),
);

const named = (name: string) => {
  const c = publicCases.find((x) => x.name === name);
  if (!c) throw new Error(`missing ${name}`);
  return structuredClone(c);
};

/** What the page computes for a case: core's chunked scan in the run's precision, as padded tables. */
function pageRun(c: ScanCase, precision: PlaygroundPrecision = "float32-engine"): JudgedRun {
  const problem = caseToProblem(c, precision === "float64" ? "float64" : "float32");
  const outputs = solve(problem, "chunked").outputs as ScanOutputs;
  const lengths = "shape" in c ? Array(c.shape[0]).fill(c.shape[1]) : c.kind === "convention" ? [] : c.lengths;
  const rows = lengths.length;
  const cols = Math.max(0, ...lengths);
  return {
    kind: outputs.kind,
    rows,
    cols,
    lengths,
    chunked: outputTables(outputs, rows, cols),
    ran: { precision, backend: "core", strategy: "chunked", chunkSize: 128, millis: 0, serialMillis: 0 },
  };
}

describe("the playground's case verdict reads the file's expected values", () => {
  for (const name of ["disc_d0.99_B3_T1000_C128", "gae_g0.99_l0.95_B2_T300_C16", "rpp_varlen_holes_g0.99"]) {
    it(`passes the public case ${name} as the CLI does`, async () => {
      const c = named(name);
      const verdict = await judgeOpenCase(c, pageRun(c));
      expect(verdict?.passed, verdict?.detail).toBe(true);
      expect(caseVerdictText(verdict)).toMatch(
        /^✓ checked against the file's expected: every element within the tolerance/,
      );
    });
  }

  it("fails a file whose expected values are all off by 0.5, whatever tolerance the file claims", async () => {
    const c = named("disc_d0.99_B3_T1000_C128");
    if (c.kind !== "discounted" || !c.expected) throw new Error("expected a discounted case");
    c.expected.returns = c.expected.returns.map((x) => x + 0.5);
    const run = pageRun(c);
    const verdict = await judgeOpenCase(c, run);
    expect(verdict?.passed).toBe(false);
    expect(caseVerdictText(verdict)).toMatch(/^▲ /);
    const loose = { ...c, tolerance: { float32: 1e300, float64: 1e300 } };
    expect((await judgeOpenCase(loose, run))?.passed).toBe(false);
  });

  it("judges a float64 run against the float64 bound", async () => {
    const c = named("gae_g0.99_l0.95_B2_T300_C16");
    const verdict = await judgeOpenCase(c, pageRun(c, "float64"));
    expect(verdict?.passed).toBe(true);
    // The float32 run's error is far above what a float64 run may be off by.
    const f32 = await judgeOpenCase(c, { ...pageRun(c), ran: { ...pageRun(c).ran, precision: "float64" } });
    expect(f32?.passed).toBe(false);
  });
});
