import { describe, expect, it } from "vitest";
import { cellName, cellText } from "./cells";

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

describe("the number a cell prints", () => {
  it("prints formatShort's number where it fits, two digits without the leading zero on a narrow cell", () => {
    expect(cellText(0.7290000319, 40)).toEqual({ text: "0.729", compact: false });
    expect(cellText(0.7290000319, 22)).toEqual({ text: ".73", compact: true });
    expect(cellText(-0.25, 22)).toEqual({ text: "-.25", compact: true });
    expect(cellText(0.5, 22)).toEqual({ text: "0.5", compact: false });
    expect(cellText(12.5, 22)).toEqual({ text: "13", compact: true });
  });

  it("prints nothing where two digits do not fit, on a cell under 20 px, or for a number it cannot shorten", () => {
    expect(cellText(-0.25, 19)).toBeUndefined();
    expect(cellText(1.5e-7, 24)).toBeUndefined();
    expect(cellText(12345, 24)).toBeUndefined();
    expect(cellText(Number.NaN, 12)).toBeUndefined();
    // A short number that fits whole still prints on a narrow desktop cell.
    expect(cellText(1, 12)).toEqual({ text: "1", compact: false });
  });
});
