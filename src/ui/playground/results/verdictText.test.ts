import { describe, expect, it } from "vitest";
import { verdictText } from "./SummaryPanel";

describe("the summary's verdict in words", () => {
  it("names the cells within or over their own bound, in the glossary's words", () => {
    expect(verdictText(0, 1570)).toBe("Verdict: every one of the 1,570 cells is within its bound.");
    expect(verdictText(0, 1)).toBe("Verdict: the one cell is within its bound.");
    expect(verdictText(1, 120)).toBe("Verdict: 1 of 120 cells is over its bound.");
    expect(verdictText(3, 120)).toBe("Verdict: 3 of 120 cells are over their bound.");
    expect(verdictText(null, 0)).toBe("No verdict: no cell to judge.");
  });
});
