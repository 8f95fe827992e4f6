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

  it("passes on the parser's message for a malformed file", () => {
    expect(() => readCases("{ cases: [", "broken.json")).toThrow("broken.json: not valid JSON");
  });
});
