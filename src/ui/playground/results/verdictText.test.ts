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

  it("counts the cells with nothing to check against apart, never as within", () => {
    expect(verdictText(0, 10, 4)).toBe(
      "Verdict: every one of the 6 checked cells is within its bound. 4 cells are not judged (no finite reference or bound).",
    );
    expect(verdictText(0, 2, 1)).toBe(
      "Verdict: the one checked cell is within its bound. 1 cell is not judged (no finite reference or bound).",
    );
    expect(verdictText(0, 3, 3)).toBe(
      "No verdict: no cell to judge. 3 cells are not judged (no finite reference or bound).",
    );
  });
});
