import { describe, expect, it } from "vitest";
import { cellName } from "./cells";

describe("a cell's accessible name", () => {
  it("leads with the short number the cell prints, then lane, token, row and the full number", () => {
    expect(cellName("local sum", 6, 0, "0.449999988", "0.45", false)).toBe(
      "0.45, local sum at t = 6, row 0: 0.449999988",
    );
  });

  it("does not repeat a number printed in full, and says when a cell is over its bound", () => {
    expect(cellName("input", 1, 0, "0.5", "0.5", false)).toBe("input at t = 1, row 0: 0.5");
    expect(cellName("|error|", 3, 1, "2.1e-7", undefined, true)).toBe(
      "|error| at t = 3, row 1: 2.1e-7, ✕ over its error bound",
    );
  });
});
