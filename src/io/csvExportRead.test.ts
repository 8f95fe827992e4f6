import { describe, expect, it } from "vitest";
import { exportedCsv, inlineBatch } from "../testing/csvExportKit";
import { accepted, refusalMessage } from "../testing/resultKit";
import { isCsvExport, readCsvExport } from "./csvExportRead";
import { parseCsvTable } from "./csvImport";
import { laneOf, materializeRows } from "./playgroundProblem";
import type { PlaygroundRow, PlaygroundState } from "./playgroundState";

/** A 2 × 3 batch with a masked token, values and KL, so every estimator has inputs to write. */
const batch = inlineBatch(
  [
    {
      length: 3,
      rewards: [1, -2.5, 0.1],
      values: [0.5, 0.25, -1],
      kl: [0.01, 0, 0.3],
      lossMask: [1, 0, 1],
      outcome: 1,
    },
    { length: 3, rewards: [4, 0, 1e-7], values: [0, 1, 2], kl: [0.2, 0.1, 0], lossMask: [1, 1, 1], outcome: -1 },
  ],
  2,
);

const read = (text: string) => accepted(readCsvExport(text, "e.csv"), "export").value;
const refusal = (text: string) => refusalMessage(readCsvExport(text, "e.csv"), "export");

/** The lanes an estimator's export carries, float32 as the page holds them. */
function lanes(rows: PlaygroundRow[], names: ("rewards" | "values" | "kl" | "lossMask")[]) {
  return rows.map((row) => Object.fromEntries(names.map((name) => [name, laneOf(row, name).map(Math.fround)])));
}

describe("reading Scanlab's CSV export back", () => {
  it("recognises the export's header, and nothing else", () => {
    expect(isCsvExport(exportedCsv(batch))).toBe(true);
    expect(isCsvExport(`\uFEFF${exportedCsv(batch)}`)).toBe(true);
    expect(isCsvExport("0,1,2\n0.5,1,2\n")).toBe(false);
    expect(isCsvExport("row,token,reward\n0,0,1\n")).toBe(false);
  });

  it("reads a 2 × 3 discounted export back as the 2 × 3 batch it was, not 6 rows of 11 numbers", () => {
    const back = read(exportedCsv(batch));
    expect(back.estimator).toBe("discounted");
    expect(back.rows.map((row) => row.length)).toEqual([3, 3]);
    expect(lanes(back.rows, ["rewards", "lossMask"])).toEqual(lanes(materializeRows(batch), ["rewards", "lossMask"]));
    expect(back.rows[0].values).toBeUndefined();
    expect(back.chunkSize).toBe(2);
    // Read as a plain table, the same text is one row per token: what the reader is for.
    const plain = parseCsvTable(exportedCsv(batch));
    expect(plain.ok && plain.value.rows.length).toBe(6);
  });

  it("round-trips GAE's rewards and values, and REINFORCE++'s KL and one outcome per row", () => {
    const gae = read(exportedCsv({ ...batch, estimator: "gae" }));
    expect(gae.estimator).toBe("gae");
    expect(lanes(gae.rows, ["rewards", "values", "lossMask"])).toEqual(
      lanes(materializeRows(batch), ["rewards", "values", "lossMask"]),
    );
    const rpp = read(exportedCsv({ ...batch, estimator: "reinforce_pp" }));
    expect(rpp.estimator).toBe("reinforce_pp");
    expect(lanes(rpp.rows, ["kl", "lossMask"])).toEqual(lanes(materializeRows(batch), ["kl", "lossMask"]));
    expect(rpp.rows.map((row) => row.outcome)).toEqual([1, -1]);
    expect(rpp.rows[0].rewards).toBeUndefined();
  });

  it("keeps ragged rows, and says no chunk size where every token is in chunk 0", () => {
    const ragged: PlaygroundState = {
      ...batch,
      chunkSize: 64,
      data: {
        source: "inline",
        rows: [
          { length: 1, rewards: [3] },
          { length: 4, rewards: [1, 2, 3, 4] },
        ],
      },
    };
    const back = read(exportedCsv(ragged));
    expect(back.rows.map((row) => row.rewards)).toEqual([[3], [1, 2, 3, 4]]);
    expect(back.rows.map((row) => row.lossMask)).toEqual([[1], [1, 1, 1, 1]]);
    expect(back.chunkSize).toBeNull();
  });

  it("reads nan and ±inf inputs as the export writes them", () => {
    const text = exportedCsv(batch).replace(/^0,1,0,0,-2\.5,/m, "0,1,0,0,-inf,");
    expect(read(text).rows[0].rewards?.[1]).toBe(Number.NEGATIVE_INFINITY);
  });

  it("names the line of a malformed export", () => {
    const lines = exportedCsv(batch).trimEnd().split("\n");
    const edited = (line: number, text: string) => lines.map((l, i) => (i === line - 1 ? text : l)).join("\n");
    const cells = (line: number) => lines[line - 1].split(",");
    const withCell = (line: number, c: number, value: string) => {
      const next = cells(line);
      next[c] = value;
      return edited(line, next.join(","));
    };
    expect(refusal(withCell(3, 3, "2"))).toBe('e.csv: line 3: loss_mask is 0 or 1, got "2"');
    expect(refusal(withCell(4, 4, "abc"))).toBe('e.csv: line 4, column 5 (reward): "abc" is not a number');
    expect(refusal(withCell(3, 1, "2"))).toBe("e.csv: line 3: token 2 of row 0 where token 1 was expected");
    expect(refusal(withCell(5, 0, "3"))).toBe(
      "e.csv: line 5: row 3 where row 0 or 1 was expected (the export lists rows in order)",
    );
    expect(refusal(withCell(2, 0, "x"))).toBe('e.csv: line 2: row "x" is not a row number (0, 1, 2, …)');
    expect(refusal(withCell(4, 4, "1e39"))).toBe(
      "e.csv: line 4, column 5 (reward): 1e39 is outside the float32 range (±3.4e38)",
    );
    expect(refusal(edited(6, cells(6).slice(0, 5).join(",")))).toMatch(
      /^e\.csv: line 6: has 5 cells, the header has 1\d/,
    );
    expect(refusal(edited(1, lines[0].replace("reward", "rewards")))).toMatch(
      /^e\.csv: line 1: after row, token, chunk, loss_mask an export has the inputs/,
    );
    expect(refusal(edited(1, lines[0].replace("returns_chunked", "returns_other")))).toBe(
      "e.csv: line 1: the columns after reward are not the returns results of a discounted export",
    );
    expect(refusal(`${lines[0]}\n`)).toBe("e.csv: is a Scanlab export header with no tokens under it");
    const rpp = exportedCsv({ ...batch, estimator: "reinforce_pp" })
      .trimEnd()
      .split("\n");
    const outcome = rpp[2].split(",");
    outcome[5] = "7";
    expect(refusal([...rpp.slice(0, 2), outcome.join(","), ...rpp.slice(3)].join("\n"))).toBe(
      "e.csv: line 3: outcome 7 differs from row 0's 1 (one outcome per row)",
    );
  });
});
