import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CaseFileError, parseCaseFile } from "./caseFile";

const publicText = readFileSync(new URL("../../cases/public_cases.json", import.meta.url), "utf8");

function messageOf(json: unknown): string {
  try {
    parseCaseFile(typeof json === "string" ? json : JSON.stringify(json), "f.json");
  } catch (error) {
    expect(error).toBeInstanceOf(CaseFileError);
    return (error as Error).message;
  }
  throw new Error("expected the file to be rejected");
}

describe("case files are validated field by field", () => {
  it("accepts the public file", () => {
    expect(parseCaseFile(publicText, "public").cases).toHaveLength(33);
  });

  it("rejects text that is not JSON, with the parser's position", () => {
    expect(messageOf('{ "meta": ')).toMatch(/^f\.json: not valid JSON \(/);
  });

  it("names missing and mistyped fields with the case's name", () => {
    const file = JSON.parse(publicText);
    delete file.cases[30].inputs.loss_masks;
    file.cases[31].lengths[0] = -1;
    const message = messageOf(file);
    expect(message).toContain('cases[30] ("rpp_slime_unit_test_example").inputs.loss_masks:');
    expect(message).toContain('cases[31] ("rpp_varlen_holes_g0.99").lengths[0]:');
  });

  it("checks ragged lengths, power tables and duplicate names", () => {
    const file = JSON.parse(publicText);
    file.cases[32].inputs.kl[2].push(0);
    file.cases[0].float32_pow_tables.pow_vec.pop();
    file.cases[1].name = file.cases[2].name;
    const message = messageOf(file);
    expect(message).toContain(
      'cases[32] ("rpp_varlen_holes_g1.0").inputs.kl[2]: expected 128 numbers (lengths[2]), got 129',
    );
    expect(message).toContain("float32_pow_tables.pow_vec: expected 128 numbers (chunk_size = 128), got 127");
    expect(message).toContain("duplicate case name (also cases[1])");
  });

  it("says which kinds it checks when it meets another", () => {
    const message = messageOf({ meta: { schema_version: 1 }, cases: [{ name: "x", kind: "policy_gradient" }] });
    expect(message).toContain('cases[0] ("x").kind: unsupported case kind "policy_gradient"');
  });

  it("rejects another schema version", () => {
    expect(messageOf({ meta: { schema_version: 2 }, cases: [] })).toContain("meta.schema_version");
  });
});
