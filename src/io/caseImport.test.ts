import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { maxAbsError, solve } from "../core";
import { importCaseFile, openCase } from "./caseImport";
import { stateToProblem } from "./playgroundProblem";
import type { PlaygroundState } from "./playgroundState";
import { DEFAULT_PLAYGROUND_STATE } from "./presets";

const read = (name: string) => readFileSync(new URL(`../../cases/${name}`, import.meta.url), "utf8");
const current: PlaygroundState = {
  ...DEFAULT_PLAYGROUND_STATE,
  precision: "slime-exact",
  backend: "wasm",
  selectedRow: 3,
};

function flat(values: ArrayLike<number> | ArrayLike<number>[]): number[] {
  return Array.from(values as ArrayLike<unknown>).flatMap((v) =>
    typeof v === "number" ? [v] : Array.from(v as ArrayLike<number>),
  );
}

describe("case files open in the playground", () => {
  const imported = importCaseFile(read("public_cases.json"), "public_cases.json");
  if (!imported.ok) throw imported.error;

  it("list every case with its kind and shape", () => {
    expect(imported.value.cases).toHaveLength(33);
    expect(imported.value.cases[0]).toEqual({
      index: 0,
      name: "disc_d0.0_B1_T1_C128",
      kind: "discounted",
      shape: "1x1",
    });
    expect(imported.value.cases.map((c) => c.kind)).toContain("reinforce_pp");
  });

  it("open each case with its inputs and parameters: the serial reference gives the file's expected values", () => {
    for (const entry of imported.value.cases) {
      const opened = openCase(imported.value, entry.index, current);
      if (!opened.ok) throw opened.error;
      const { state, case: c } = opened.value;
      expect(state).toMatchObject({ estimator: c.kind, precision: "slime-exact", backend: "wasm", selectedRow: 0 });
      if (c.kind === "convention" || !c.expected) throw new Error(`${c.name}: the public file has no such case`);
      const outputs = solve(stateToProblem(state, "float64"), "serial").outputs;
      const [actual, expected] =
        outputs.kind === "gae" && c.kind === "gae"
          ? [outputs.advantages, c.expected.advantages]
          : [outputs.kind === "gae" ? [] : outputs.returns, (c.expected as { returns: number[] | number[][] }).returns];
      expect(maxAbsError(flat(actual), flat(expected)), c.name).toBe(0);
    }
  });

  it("refuse a case index the file does not have", () => {
    const opened = openCase(imported.value, 33, current, "public_cases.json");
    expect(!opened.ok && opened.error.message).toBe("public_cases.json: has no case 33 (it has 33)");
  });

  it("open library-convention cases as slime takes their inputs, with a note", () => {
    const conventions = importCaseFile(read("conventions_public.json"), "conventions_public.json");
    if (!conventions.ok) throw conventions.error;
    const byName = (name: string) => {
      const entry = conventions.value.cases.find((c) => c.name === name);
      const opened = openCase(conventions.value, entry?.index ?? -1, current);
      if (!opened.ok) throw opened.error;
      return opened;
    };
    for (const entry of conventions.value.cases)
      expect(openCase(conventions.value, entry.index, current).ok).toBe(true);
    const rpp = byName("slime_rpp_g1_raw");
    expect(rpp.notes[0]).toMatch(
      /^slime_rpp_g1_raw: a library-convention case \(slime\), opened as slime's REINFORCE\+\+/,
    );
    const c = rpp.value.case;
    if (c.kind !== "convention" || !c.expected) throw new Error("expected a convention case");
    const returns = solve(stateToProblem(rpp.value.state, "float64"), "serial").outputs;
    expect(
      returns.kind === "reinforce_pp" && maxAbsError(flat(returns.returns), flat(c.expected.returns)),
    ).toBeLessThan(1e-12);
    const gae = byName("slime_gae_g1_l1_raw");
    const g = gae.value.case;
    if (g.kind !== "convention" || !g.expected) throw new Error("expected a convention case");
    const advantages = solve(stateToProblem(gae.value.state, "float64"), "serial").outputs;
    const rows = gae.value.state.data.source === "inline" ? gae.value.state.data.rows : [];
    const T = Math.max(...rows.map((r) => r.length));
    const trimmed =
      advantages.kind === "gae"
        ? rows.flatMap((r, b) => Array.from(advantages.advantages.subarray(b * T, b * T + r.length)))
        : [];
    // The token rewards are rounded to float32 on the way in (−kl_coef·kl is not a float32 value).
    expect(maxAbsError(trimmed, flat(g.expected.advantages))).toBeLessThan(1e-6);
  });

  it("report a file that is not a case file, naming the source", () => {
    const bad = importCaseFile("{", "bad.json");
    expect(!bad.ok && bad.error.message).toMatch(/^bad.json: not valid JSON/);
    const invalid = importCaseFile(JSON.stringify({ meta: { schema_version: 1 }, cases: [{ kind: "x" }] }), "x.json");
    expect(!invalid.ok && invalid.error.message).toMatch(/^x.json: not a valid case file/);
    const empty = importCaseFile(JSON.stringify({ meta: { schema_version: 1 }, cases: [] }), "e.json");
    expect(!empty.ok && empty.error.message).toBe("e.json: holds no cases");
  });

  it("refuse a case the playground cannot hold, naming the case and the field", () => {
    const file = JSON.parse(read("public_cases.json"));
    file.cases = [file.cases[0]];
    file.cases[0].params.discount = 1.5;
    const parsed = importCaseFile(JSON.stringify(file), "f.json");
    if (!parsed.ok) throw parsed.error;
    const opened = openCase(parsed.value, 0, current, "f.json");
    expect(!opened.ok && opened.error.message).toBe(
      'f.json: cases[0] ("disc_d0.0_B1_T1_C128"): cannot be opened in the playground: gamma: expected a number between 0 and 1, got 1.5',
    );
  });
});
