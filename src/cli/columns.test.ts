import { describe, expect, it } from "vitest";
import { alignColumns } from "./columns";

describe("alignColumns", () => {
  it("pads each column to its widest cell, the header's included, and trims the line's end", () => {
    expect(
      alignColumns(
        ["rank", "chunk"],
        [
          ["0", "12345678"],
          ["10", ""],
        ],
      ),
    ).toEqual({
      header: "rank  chunk",
      rule: "----  --------",
      rows: ["0     12345678", "10"],
    });
  });

  it("gives a header and rule alone when there is no row", () => {
    expect(alignColumns(["case", "kind"], [])).toEqual({ header: "case  kind", rule: "----  ----", rows: [] });
  });
});
