import { describe, expect, it } from "vitest";
import { exportCase } from "../../../io/caseExport";
import { exampleById } from "../../../io/presets";
import { prefixed } from "./ExportMenu";

describe("an export's error message", () => {
  it("names what was exported once, not 'Case export: Case export: …'", () => {
    const example = exampleById("nan-one-token");
    if (!example) throw new Error("no NaN example");
    const result = exportCase(example.state);
    if (result.ok) throw new Error("a NaN input must be refused");
    // The menu throws the worker's message and leads it with the menu item's name.
    expect(prefixed("Case export", new Error(result.error.message))).toBe(
      "Case export: cannot hold non-finite inputs (rewards: NaN at row 1, token 140)",
    );
    expect(prefixed("Case export", new Error("nothing is drawn yet"))).toBe("Case export: nothing is drawn yet");
  });
});
