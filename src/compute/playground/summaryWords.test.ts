import { describe, expect, it } from "vitest";
import { summarizeErrors } from "./errorSummary";
import { verdictText } from "./summaryWords";

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

  it("words a summary whose bounds of +Inf or NaN check nothing: those cells are not judged", () => {
    const input = {
      rows: 2,
      cols: 3,
      lengths: [3, 2],
      reference: { returns: new Float64Array([1, 2, 3, 0.1, 5, 9]) },
      chunked: { returns: new Float32Array([1, 2.5, Number.POSITIVE_INFINITY, 0.1, 5, 0]) },
      bound: {
        returns: new Float64Array([0.1, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, Number.NaN, 0.1, 0]),
      },
      precision: "float32" as const,
    };
    const summary = summarizeErrors(input);
    expect(verdictText(summary.overBound, summary.cells, summary.lost + summary.unbounded)).toBe(
      "Verdict: 1 of 3 checked cells is over its bound. 2 cells are not judged (no finite reference or bound).",
    );
    const allUnbounded = summarizeErrors({
      ...input,
      chunked: { returns: new Float32Array([1, 2.5, 3, 0.1, 5, 123]) },
      bound: { returns: new Float64Array(6).fill(Number.NaN) },
    });
    expect(verdictText(allUnbounded.overBound, allUnbounded.cells, allUnbounded.unbounded)).toBe(
      "No verdict: no cell to judge. 5 cells are not judged (no finite reference or bound).",
    );
  });
});
