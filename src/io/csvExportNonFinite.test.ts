import { describe, expect, it } from "vitest";
import { exportedCsv, inlineBatch } from "../testing/csvExportKit";
import type { PlaygroundRow } from "./playgroundState";

describe("the CSV export's errors where the results are not finite", () => {
  it("writes 0, not nan, where both scans give the same infinity, and nan where they differ", () => {
    const rows: PlaygroundRow[] = [{ length: 4, rewards: [1, Number.NEGATIVE_INFINITY, 2, 3] }];
    const csv = exportedCsv(inlineBatch(rows, 4));
    const [header, ...lines] = csv.trim().split("\n");
    const column = (name: string) => lines.map((line) => line.split(",")[header.split(",").indexOf(name)]);
    // Tokens 0–1 are −inf in the reference and in both float32 scans; the chunked scan's inf·0 makes tokens 2–3 NaN.
    expect(column("returns_serial_f64")).toEqual(["-inf", "-inf", "3.5", "3"]);
    expect(column("returns_chunked")).toEqual(["-inf", "-inf", "nan", "nan"]);
    expect(column("returns_abs_err")).toEqual(["0", "0", "nan", "nan"]);
    expect(column("returns_rel_err")).toEqual(["0", "0", "nan", "nan"]);
    expect(column("returns_serial_f32_abs_err")).toEqual(["0", "0", "0", "0"]);
  });
});
