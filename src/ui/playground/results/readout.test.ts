import { describe, expect, it } from "vitest";
import type { PlaygroundResult } from "../../../compute/playground/playgroundRun";
import { readoutAt } from "./readout";

const result = {
  kind: "discounted",
  rows: 2,
  cols: 3,
  lengths: [3, 2],
  reference: { returns: new Float64Array([1, 2, 3, 4, 5, 0]) },
  chunked: { returns: new Float32Array([1, 2.5, 3, 4, 5, 0]) },
  serial32: { returns: new Float32Array([1, 2, 3, 4, 5, 0]) },
  bound: { returns: new Float64Array([1, 0.25, 1, 1, 1, 0]) },
  ran: { precision: "float32-engine" },
} as unknown as PlaygroundResult;

describe("readoutAt", () => {
  it("gives the inputs, the three results and every error of a token, marking a cell over its bound", () => {
    const lines = readoutAt(result, [{ length: 3, rewards: [1, 1, 3] }], "returns", [0, 2], 0, 1) ?? [];
    const value = (label: string) => lines.find((line) => line.label === label)?.value;
    expect(value("row · token")).toBe("0 · 1");
    expect(value("chunk")).toBe("1");
    expect(value("reward")).toBe("1");
    expect(value("serial float64")).toBe("2");
    expect(value("chunked float32")).toBe("2.5");
    expect(value("abs error")).toBe("0.5");
    expect(value("bound")).toBe("0.25 ▲ over");
    expect(lines.find((line) => line.label === "bound")?.alert).toBe(true);
  });

  it("says a token past the row's length is padding, and knows nothing outside the batch", () => {
    const lines = readoutAt(result, [], "returns", [], 1, 2);
    expect(lines?.at(-1)).toEqual({ label: "padding", value: "past the row's 2 tokens" });
    expect(readoutAt(result, [], "returns", [], 2, 0)).toBeNull();
  });

  it("names a cell NaN took instead of giving it an error or a bound verdict", () => {
    const lost = {
      ...result,
      reference: { returns: new Float64Array([1, Number.NaN, 3, 4, 5, 0]) },
      chunked: { returns: new Float32Array([Number.NaN, Number.NaN, 3, 4, 5, 0]) },
      bound: { returns: new Float64Array([1, Number.NaN, 1, 1, 1, 0]) },
    } as unknown as PlaygroundResult;
    const both = readoutAt(lost, [], "returns", [], 0, 1) ?? [];
    expect(both.find((line) => line.label === "error")?.value).toMatch(/not measured: both scans are NaN/);
    expect(both.some((line) => line.label === "bound" || line.label === "abs error" || line.alert)).toBe(false);
    const chunkedOnly = readoutAt(lost, [], "returns", [], 0, 0) ?? [];
    expect(chunkedOnly.find((line) => line.label === "error")?.value).toMatch(/only the chunked scan lost/);
  });
});
