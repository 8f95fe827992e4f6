import { describe, expect, it } from "vitest";
import { parseOptions, UsageError } from "./parseOptions";

const OPTIONS = { size: { type: "string" }, json: { type: "boolean" } } as const;

describe("parseOptions", () => {
  it("reads options and positionals", () => {
    expect(parseOptions(["run", "--size", "4", "--json", "file"], OPTIONS)).toEqual({
      values: { size: "4", json: true },
      positionals: ["run", "file"],
    });
  });

  it("refuses an option given twice, naming both values when it takes one", () => {
    expect(() => parseOptions(["--size", "4", "--size=5"], OPTIONS)).toThrow(
      new UsageError("--size is given more than once (4, then 5); give it once"),
    );
    expect(() => parseOptions(["--json", "--json"], OPTIONS)).toThrow(
      new UsageError("--json is given more than once; give it once"),
    );
  });

  it("turns parseArgs' own refusals into usage errors", () => {
    expect(() => parseOptions(["--mode", "x"], OPTIONS)).toThrow(UsageError);
    expect(() => parseOptions(["--size"], OPTIONS)).toThrow(/--size/);
  });
});
