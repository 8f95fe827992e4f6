import { describe, expect, it } from "vitest";
import { inlineBatch } from "../testing/csvExportKit";
import { exportCsv } from "./csvExport";
import { parseCsvTable } from "./csvImport";
import { float32Text } from "./float32Text";
import { materializeRows } from "./playgroundProblem";
import { DEFAULT_PLAYGROUND_STATE } from "./presets";

const ragged = inlineBatch(
  [
    { length: 3, rewards: [1, 2, 0.1], lossMask: [1, 0, 1] },
    { length: 1, rewards: [4] },
  ],
  2,
);

function table(text: string) {
  const parsed = parseCsvTable(text);
  if (!parsed.ok) throw parsed.error;
  return parsed.value;
}

describe("CSV export", () => {
  it("writes one line per valid token with inputs, both scans and their errors", () => {
    const exported = exportCsv(ragged, materializeRows(ragged));
    if (!exported.ok) throw exported.error;
    const { header, rows } = table(exported.value.text);
    expect(header).toEqual([
      "row",
      "token",
      "chunk",
      "loss_mask",
      "reward",
      "returns_serial_f64",
      "returns_chunked",
      "returns_abs_err",
      "returns_rel_err",
      "returns_serial_f32",
      "returns_serial_f32_abs_err",
    ]);
    expect(rows.map((r) => r.slice(0, 6))).toEqual([
      [0, 0, 1, 1, 1, 1 + 0.5 * (2 + 0.5 * Math.fround(0.1))],
      [0, 1, 0, 0, 2, 2 + 0.5 * Math.fround(0.1)],
      [0, 2, 0, 1, 0.1, Math.fround(0.1)],
      [1, 0, 1, 1, 4, 4],
    ]);
    for (const r of rows) {
      expect(r[7]).toBe(Math.abs(r[6] - r[5]));
      expect(Math.fround(r[6])).toBe(r[6]);
    }
    expect(exported.value.fileName).toBe("playground_discounted_B2_T3.csv");
  });

  it("takes the page's own results when given, and names GAE's and REINFORCE++'s inputs and outputs", () => {
    const gae = { ...ragged, estimator: "gae" as const };
    const tables = { returns: new Float64Array(6), advantages: new Float64Array([1, 2, 3, 4, 5, 6]) };
    const given = exportCsv(gae, materializeRows(gae), { cols: 3, reference: tables, chunked: tables });
    if (!given.ok) throw given.error;
    const { header, rows } = table(given.value.text);
    expect(header?.slice(4, 7)).toEqual(["reward", "value", "returns_serial_f64"]);
    expect(header).toContain("advantages_abs_err");
    expect(header).not.toContain("returns_serial_f32");
    expect(rows.map((r) => r[header?.indexOf("advantages_serial_f64") ?? -1])).toEqual([1, 2, 3, 4]);
    const rpp = exportCsv(DEFAULT_PLAYGROUND_STATE, materializeRows(DEFAULT_PLAYGROUND_STATE));
    if (!rpp.ok) throw rpp.error;
    expect(rpp.value.text.split("\n")[0]).toMatch(
      /^row,token,chunk,loss_mask,kl,outcome,returns_serial_f64,.*token_level_rewards_serial_f64/,
    );
  });

  it("reports inputs the scan rejects instead of throwing", () => {
    const masked = {
      ...DEFAULT_PLAYGROUND_STATE,
      data: { source: "inline" as const, rows: [{ length: 2, lossMask: [0, 0] as (0 | 1)[] }] },
    };
    const result = exportCsv(masked, materializeRows(masked));
    expect(!result.ok && result.error.message).toBe(
      "CSV export: could not be written (Sequence at index 0 is fully masked.)",
    );
  });

  it("writes float32 inputs in their shortest form", () => {
    expect(float32Text(Math.fround(0.1))).toBe("0.1");
    expect(float32Text(Math.fround(1 / 3))).toBe("0.33333334");
    expect(float32Text(1e30)).toBe("1e+30");
    expect(float32Text(Math.fround(1e-45))).toBe("1e-45");
    expect(float32Text(-0)).toBe("0");
  });
});
