import { describe, expect, it } from "vitest";
import { pageErrorLines } from "./usePageErrors";

describe("the page's error lines", () => {
  it("lists every source in order, fields by their reasons, and leaves out the quiet ones", () => {
    expect(
      pageErrorLines("Shared link: bad", null, undefined, "", "x.csv: line 2", { gamma: "γ ≤ 1", chunk: "C ≥ 1" }),
    ).toEqual(["Shared link: bad", "x.csv: line 2", "γ ≤ 1", "C ≥ 1"]);
    expect(pageErrorLines(null, {})).toEqual([]);
  });
});
