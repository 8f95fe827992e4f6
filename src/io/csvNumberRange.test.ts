import { describe, expect, it } from "vitest";
import { exportedCsv, inlineBatch } from "../testing/csvExportKit";
import { importCsv, parseCsvTable } from "./csvImport";
import { FLOAT32_MAX } from "./playgroundState";

describe("a CSV number at the edge of the float32 range", () => {
  it("reads FLT_MAX as numpy, pandas and Scanlab's export print it (3.4028235e+38), and its negative", () => {
    const table = parseCsvTable("3.4028235e+38,-3.4028235e+38,3.4028235E38\n");
    expect(table.ok).toBe(true);
    if (!table.ok) return;
    expect(table.value.rows[0].map(Math.fround)).toEqual([FLOAT32_MAX, -FLOAT32_MAX, FLOAT32_MAX]);
  });

  it("still refuses what rounds to ±inf in float32 (half an ulp above FLT_MAX and beyond)", () => {
    for (const cell of ["3.4028236e+38", "3.5e38", "-1e39", "1e400"]) {
      const table = parseCsvTable(`1,${cell}\n`);
      expect(table.ok, cell).toBe(false);
      if (!table.ok) expect(table.error.message).toContain("is outside the float32 range");
    }
  });

  it("reads back the inputs of Scanlab's own CSV export at FLT_MAX, NaN and inf included", () => {
    const rows = [{ length: 4, rewards: [FLOAT32_MAX, -FLOAT32_MAX, Number.NaN, Number.NEGATIVE_INFINITY] }];
    const csv = exportedCsv(inlineBatch(rows, 4));
    const rewards = csv
      .trim()
      .split("\n")
      .slice(1)
      .map((line) => line.split(",")[4]);
    expect(rewards).toEqual(["3.4028235e+38", "-3.4028235e+38", "nan", "-inf"]);
    const back = importCsv(`${rewards.join(",")}\n`, "rewards");
    expect(back.ok).toBe(true);
    if (back.ok)
      expect(back.value[0].rewards).toEqual([FLOAT32_MAX, -FLOAT32_MAX, Number.NaN, Number.NEGATIVE_INFINITY]);
  });
});
