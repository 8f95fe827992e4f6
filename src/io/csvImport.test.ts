import { describe, expect, it } from "vitest";
import { importCsv, importCsvLane, parseCsvTable } from "./csvImport";

function refusal(text: string): string {
  const parsed = parseCsvTable(text, "r.csv");
  if (parsed.ok) throw new Error("expected the CSV to be refused");
  return parsed.error.message;
}

describe("CSV import", () => {
  it("reads rows × tokens, with an optional header, ragged rows and any usual delimiter", () => {
    expect(parseCsvTable("0,0,1\n0.5,-2e-3\n")).toEqual({
      ok: true,
      value: {
        header: null,
        rows: [
          [0, 0, 1],
          [0.5, -0.002],
        ],
        rowNumbers: [1, 2],
      },
      notes: [],
    });
    const withHeader = parseCsvTable("\uFEFFt0,t1,t2\r\n1,2,3\r\n\r\n4,,\r\n", "h.csv");
    expect(withHeader).toEqual({
      ok: true,
      value: { header: ["t0", "t1", "t2"], rows: [[1, 2, 3], [4]], rowNumbers: [2, 4] },
      notes: ["h.csv: the first line was read as a header and skipped"],
    });
    const tabs = parseCsvTable("1\t2\n3\t4");
    expect(tabs.ok && tabs.value.rows).toEqual([
      [1, 2],
      [3, 4],
    ]);
    const column = parseCsvTable("1\n2\n3");
    expect(column.ok && column.value.rows).toEqual([[1], [2], [3]]);
  });

  it("reads nan, inf and -inf as numpy writes them (the playground reports and runs them)", () => {
    const table = parseCsvTable("1,NaN\ninf,-Infinity");
    expect(table.ok && table.value.rows).toEqual([
      [1, Number.NaN],
      [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY],
    ]);
    const mask = importCsv("1,nan", "lossMask", "r.csv");
    expect(!mask.ok && mask.error.message).toBe("r.csv: row 1, column 2: a loss mask is 0 or 1, got NaN");
  });

  it("names the row and column of a bad cell, counted as a spreadsheet shows them", () => {
    expect(refusal("t0,t1\n1,2\n3,abc")).toBe('r.csv: row 3, column 2: "abc" is not a number');
    expect(refusal("1,2,3\n4,,6")).toBe(
      "r.csv: row 2, column 2: empty cell before the end of the row (only trailing cells may be empty)",
    );
    expect(refusal("1e39")).toBe("r.csv: row 1, column 1: 1e39 is outside the float32 range (±3.4e38)");
    expect(refusal("0x10")).toBe('r.csv: row 1, column 1: "0x10" is not a number');
    expect(refusal("1,2,abc")).toBe('r.csv: row 1, column 3: "abc" is not a number');
    expect(refusal('1,"2\n3')).toMatch(/^r.csv: row 1: .*not a well-formed CSV/);
    expect(refusal("")).toBe("r.csv: has no rows of numbers");
    expect(refusal("a,b\n\n")).toBe('r.csv: row 1, column 1: "a" is not a number');
  });

  it("refuses a table above the size limits", () => {
    expect(refusal(`${"0,".repeat(65536)}0`)).toBe("r.csv: row 1: has 65537 values, above the limit of 65536 tokens");
    expect(refusal("1\n".repeat(1025))).toBe("r.csv: row 1025: more than 1024 rows (the limit)");
  });

  it("fills one lane of a new batch, rounding to float32", () => {
    expect(importCsv("0.1,1\n2", "kl")).toEqual({
      ok: true,
      value: [
        { length: 2, kl: [Math.fround(0.1), 1] },
        { length: 1, kl: [2] },
      ],
      notes: [],
    });
    const mask = importCsv("1,0\n1,2", "lossMask", "m.csv");
    expect(!mask.ok && mask.error.message).toBe("m.csv: row 2, column 2: a loss mask is 0 or 1, got 2");
  });

  it("fills a lane of an existing batch when every row's length matches", () => {
    const batch = [
      { length: 2, rewards: [1, 2] },
      { length: 1, rewards: [3] },
    ];
    expect(importCsvLane("v0,v1\n0.5,0.5\n0.25", "values", batch)).toMatchObject({
      ok: true,
      value: [
        { length: 2, rewards: [1, 2], values: [0.5, 0.5] },
        { length: 1, rewards: [3], values: [0.25] },
      ],
    });
    const short = importCsvLane("v0,v1\n0.5,0.5\n0.25,1", "values", batch, "v.csv");
    expect(!short.ok && short.error.message).toBe("v.csv: row 3: has 2 values, but batch row 1 has 1 tokens");
    const fewer = importCsvLane("1,2", "values", batch, "v.csv");
    expect(!fewer.ok && fewer.error.message).toBe("v.csv: has 1 rows, but the batch has 2");
  });
});
