import { countText } from "../../io/countText";
import type { ErrorSummary, SummaryCell } from "./errorSummary";
import { OUTPUT_LABELS } from "./outputLabels";

/** A figure as plain text a script can parse with Number(): 6 significant digits, an exponent when small or large. */
export function plainNumber(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return "0";
  const rounded = Number(x.toPrecision(6));
  const a = Math.abs(rounded);
  return a >= 1e-3 && a < 1e6 ? String(rounded) : rounded.toExponential();
}

/**
 * The NaN / ±Inf line: "NaN / ∞ cells: chunked 128, serial 41 · 87 where only the chunked side is
 * are in the figures, over their bound · 41 where the serial reference is are left out"
 * (valid tokens, every output).
 */
export function nonFiniteCount(summary: Pick<ErrorSummary, "nonFinite" | "chunkedOnly" | "lost">): string {
  const { nonFinite, chunkedOnly, lost } = summary;
  const parts = [`NaN / ∞ cells: chunked ${countText(nonFinite.chunked)}, serial ${countText(nonFinite.serial)}`];
  if (chunkedOnly > 0) {
    parts.push(`${countText(chunkedOnly)} where only the chunked side is: in the figures, over their bound`);
  }
  if (lost > 0) parts.push(`${countText(lost)} where the serial reference is: left out of the figures (lost)`);
  return parts.join(" · ");
}

/** Output, row and token of a cell, as the summary names it. */
export function cellName(cell: SummaryCell): string {
  return `${OUTPUT_LABELS[cell.output]}, row ${cell.row}, token ${cell.token}`;
}

/**
 * The verdict as a sentence: "every one of the 1,570 cells is within its bound", "3 of 120 cells are
 * over…". `notJudged` cells (a NaN or ±Inf reference, or a bound that is not finite) have nothing to
 * be checked against: they are counted apart and never said to be within.
 */
export function verdictText(over: number | null, cells: number, notJudged = 0): string {
  const judged = cells - notJudged;
  const apart =
    notJudged === 0
      ? ""
      : ` ${countText(notJudged)} ${notJudged === 1 ? "cell is" : "cells are"} not judged (no finite reference or bound).`;
  if (over === null || judged <= 0) return `No verdict: no cell to judge.${apart}`;
  const checked = notJudged === 0 ? "" : " checked";
  if (over === 0)
    return judged === 1
      ? `Verdict: the one${checked} cell is within its bound.${apart}`
      : `Verdict: every one of the ${countText(judged)}${checked} cells is within its bound.${apart}`;
  return `Verdict: ${countText(over)} of ${countText(judged)}${checked} ${judged === 1 ? "cell" : "cells"} ${over === 1 ? "is over its bound" : "are over their bound"}.${apart}`;
}

/** A run's time as the summary writes it. */
export function millis(ms: number): string {
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms)} ms`;
}
