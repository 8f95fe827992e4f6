import { describe, expect, it } from "vitest";
import { accepted, refusalMessage } from "../testing/resultKit";
import { importCsv, importCsvLane, parseCsvTable } from "./csvImport";

/** The notes of a table that must parse. */
const notesOf = (text: string, source?: string) => accepted(parseCsvTable(text, source), "CSV").notes;
const refusal = (text: string) => refusalMessage(parseCsvTable(text, "r.csv"), "CSV");

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
        countingLine: null,
      },
      notes: [],
    });
    const withHeader = parseCsvTable("\uFEFFt0,t1,t2\r\n1,2,3\r\n\r\n4,,\r\n", "h.csv");
    expect(withHeader).toEqual({
      ok: true,
      value: { header: ["t0", "t1", "t2"], rows: [[1, 2, 3], [4]], rowNumbers: [2, 4], countingLine: null },
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

  it("skips pandas' column labels 0, 1, …, N − 1 and its index column, each with a note", () => {
    const labels = parseCsvTable("0,1,2\n0.5,1,2\n3,4,5", "p.csv");
    expect(labels.ok && labels.value.rows).toEqual([
      [0.5, 1, 2],
      [3, 4, 5],
    ]);
    expect(notesOf("0,1,2\n0.5,1,2\n3,4,5", "p.csv")).toEqual([
      "p.csv: line 1 (0, 1, 2) was read as pandas' column labels and skipped",
    ]);
    const wide = parseCsvTable(`${Array.from({ length: 200 }, (_, i) => i).join(",")}\n${"1,".repeat(199)}1`, "w.csv");
    expect(wide.ok && wide.value.rows.length).toBe(1);
    expect(wide.ok && wide.notes).toEqual([
      "w.csv: line 1 (0, 1, …, 199) was read as pandas' column labels and skipped",
    ]);
    // to_csv(index=True): an empty first header cell, then the index down column 1.
    const indexed = parseCsvTable(",0,1\n0,0.25,0.5\n1,0.75,1", "i.csv");
    expect(indexed.ok && indexed.value.rows).toEqual([
      [0.25, 0.5],
      [0.75, 1],
    ]);
    expect(indexed.ok && indexed.notes).toEqual([
      "i.csv: line 1 (0, 1) was read as pandas' column labels and skipped",
      "i.csv: column 1 (0, 1, 2, …) was read as pandas' index and dropped",
    ]);
    const named = parseCsvTable("Unnamed: 0,a,b\n0,1,2\n1,3,4", "n.csv");
    expect(named.ok && named.value.rows).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(named.ok && named.notes[1]).toBe("n.csv: column 1 (0, 1, 2, …) was read as an index and dropped");
    // A bad cell behind a dropped index column is still named by its place in the file.
    expect(refusal(",0,1\n0,1,x")).toBe('r.csv: line 2, column 3: "x" is not a number');
  });

  it("keeps a first line of other numbers as data, saying when it looks like labels", () => {
    const counted = parseCsvTable("1,2,3\n4,5,6", "c.csv");
    expect(counted.ok && counted.value.rows).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    expect(counted.ok && counted.notes).toEqual([
      "c.csv: line 1 (1, 2, 3) looks like column labels; it was kept as data (a first line of 0, 1, …, N − 1 is skipped as pandas' labels)",
    ]);
    expect(notesOf("0,1.5\n2,3")).toEqual([]);
    // A lone line of 0, 1, … is data: there is nothing for it to label.
    expect(notesOf("0,1,2")).toEqual([]);
  });

  it("reads nan, inf and -inf as numpy writes them (the playground reports and runs them)", () => {
    const table = parseCsvTable("1,NaN\ninf,-Infinity");
    expect(table.ok && table.value.rows).toEqual([
      [1, Number.NaN],
      [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY],
    ]);
    const mask = importCsv("1,nan", "lossMask", "r.csv");
    expect(!mask.ok && mask.error.message).toBe("r.csv: line 1, column 2: a loss mask is 0 or 1, got NaN");
  });

  it("names the line and column of a bad cell, counted from 1 as an editor shows them", () => {
    expect(refusal("t0,t1\n1,2\n3,abc")).toBe('r.csv: line 3, column 2: "abc" is not a number');
    expect(refusal("1,2,3\n4,,6")).toBe(
      "r.csv: line 2, column 2: empty cell before the end of the row (only trailing cells may be empty)",
    );
    expect(refusal("1e39")).toBe("r.csv: line 1, column 1: 1e39 is outside the float32 range (±3.4e38)");
    expect(refusal("0x10")).toBe('r.csv: line 1, column 1: "0x10" is not a number');
    expect(refusal("1,2,abc")).toBe('r.csv: line 1, column 3: "abc" is not a number');
    expect(refusal('1,"2\n3')).toMatch(/^r.csv: line 1: .*not a well-formed CSV/);
    expect(refusal("")).toBe("r.csv: has no rows of numbers");
    expect(refusal("a,b\n\n")).toBe('r.csv: line 1, column 1: "a" is not a number');
  });

  it("refuses a table above the size limits", () => {
    expect(refusal(`${"0,".repeat(65536)}0`)).toBe("r.csv: line 1: has 65537 values, above the limit of 65536 tokens");
    expect(refusal("1\n".repeat(1025))).toBe("r.csv: line 1025: more than 1024 rows (the limit)");
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
    expect(!mask.ok && mask.error.message).toBe("m.csv: line 2, column 2: a loss mask is 0 or 1, got 2");
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
    expect(!short.ok && short.error.message).toBe("v.csv: line 3: has 2 values, but batch row 1 has 1 tokens");
    const fewer = importCsvLane("1,2", "values", batch, "v.csv");
    expect(!fewer.ok && fewer.error.message).toBe("v.csv: has 1 rows, but the batch has 2");
  });
});
