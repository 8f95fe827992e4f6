import { exportCsv } from "../io/csvExport";
import { materializeRows } from "../io/playgroundProblem";
import type { PlaygroundRow, PlaygroundState } from "../io/playgroundState";
import { inlineState } from "./playgroundStateKit";

/** Test support for the CSV export's tests: a small inline batch, and its export's text. */

/** Discounted returns at γ 0.5 over the given rows, typed in (inline). */
export function inlineBatch(rows: PlaygroundRow[], chunkSize: number): PlaygroundState {
  return inlineState(rows, { estimator: "discounted", gamma: 0.5, chunkSize });
}

/** The CSV Scanlab's export writes for `state`; a refusal throws. */
export function exportedCsv(state: PlaygroundState): string {
  const result = exportCsv(state, materializeRows(state));
  if (!result.ok) throw result.error;
  return result.value.text;
}
