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

  it("aligns 150,000 rows without spreading them into Math.max (which overflowed the call stack)", () => {
    const rows = Array.from({ length: 150_000 }, (_, i) => [String(i), "pass"]);
    const table = alignColumns(["sample", "result"], rows);
    expect(table.rows).toHaveLength(150_000);
    expect(table.rows[149_999]).toBe("149999  pass");
  });
});
