import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readCases } from "./readCases";

describe("reading a chosen case file", () => {
  it("returns the cases of a good file", () => {
    const text = readFileSync(new URL("../../../cases/public_cases.json", import.meta.url), "utf8");
    expect(readCases(text, "public_cases.json")).toHaveLength(33);
  });

  it("refuses a file without cases, which would otherwise finish as 0 passed, 0 failed", () => {
    expect(() => readCases('{"meta":{"schema_version":1},"cases":[]}', "empty.json")).toThrow(
      "empty.json: the file has no cases, so there is nothing to check",
    );
  });

  it("refuses a file whose only case has shape [0, 5]: no value to compare, so no verdict", () => {
    const file = JSON.parse(readFileSync(new URL("../../../cases/public_cases.json", import.meta.url), "utf8"));
    const c = file.cases[0];
    file.cases = [
      { ...c, shape: [0, 5], inputs: { rewards: [] }, expected: { returns: [] }, chunked_float32: { returns: [] } },
    ];
    delete file.cases[0].float32_pow_tables;
    expect(() => readCases(JSON.stringify(file), "zero.json")).toThrow(
      "nothing to check in zero.json: every case has 0 tokens and expects no error",
    );
  });

  it("refuses a GAE case whose expected.deltas are not its inputs' TD residuals", () => {
    const file = JSON.parse(readFileSync(new URL("../../../cases/public_cases.json", import.meta.url), "utf8"));
    const gae = file.cases.find((c: { kind: string }) => c.kind === "gae");
    gae.expected.deltas = gae.expected.deltas.map(() => 0);
    expect(() => readCases(JSON.stringify(file), "deltas.json")).toThrow(/expected\.deltas\[0\] \(row 0, token 0\)/);
  });

  it("lists every contradiction up to 10, as the command does, not only the first few", () => {
    const file = JSON.parse(readFileSync(new URL("../../../cases/public_cases.json", import.meta.url), "utf8"));
    const tabled = file.cases.filter((c: { float32_pow_tables?: unknown }) => c.float32_pow_tables);
    for (const c of tabled.slice(0, 12)) c.float32_pow_tables.M_row0[1] = 0.123;
    let message = "";
    try {
      readCases(JSON.stringify(file), "many.json");
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message.match(/M_row0\[1\]: 0\.123 is not/g)).toHaveLength(10);
    expect(message).toMatch(/; … and 2 more problems$/);
  });

  it("passes on the parser's message for a malformed file", () => {
    expect(() => readCases("{ cases: [", "broken.json")).toThrow("broken.json: not valid JSON");
  });

  it("refuses a file whose power tables contradict its discount, naming the table and index", () => {
    const file = JSON.parse(readFileSync(new URL("../../../cases/public_cases.json", import.meta.url), "utf8"));
    file.cases[12].params.discount = 0.5;
    expect(() => readCases(JSON.stringify(file), "edited.json")).toThrow(
      /^edited\.json: the file contradicts itself: cases\[12\] \(".*"\)\.float32_pow_tables\.M_row0\[1\]/,
    );
  });

  it("reports invalid UTF-8 by its byte offset instead of replacing it", () => {
    const bytes = new Uint8Array([...new TextEncoder().encode('{"meta":{"schema_version":1},"cases":["'), 0xff, 0x22]);
    expect(() => readCases(bytes, "bad.json")).toThrow(/byte offset/);
  });
});
