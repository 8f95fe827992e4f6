import type { ScanProblem } from "../../core";
import type { PlaygroundRow, PlaygroundState } from "../../io/playgroundState";
import type { PlaygroundResult, RunRequest } from "./playgroundRun";
import { problemsFor } from "./problemCache";
import { maskTable } from "./rowView";

/** What a run of a state asks the playground worker, and the float32 problem the engine is sent. */
export function requestOf(
  id: number,
  state: PlaygroundState,
  rows: PlaygroundRow[],
): RunRequest & { p32: ScanProblem } {
  const { p64, p32 } = problemsFor(state, rows);
  const lengths = rows.map((row) => row.length);
  // For the heatmap's hatching: the worker keeps it beside the result's tables (resultPictures.ts).
  const lossMask = maskTable(
    rows,
    lengths.reduce((max, n) => Math.max(max, n), 0),
  );
  return { id, problem: p64, p32, precision: state.precision, strategy: state.strategy, lengths, lossMask };
}

/** The settings and data that change what is computed (not the selected row or the heatmap metric). */
export function settingsKey(state: PlaygroundState): string {
  const { estimator, gamma, lambd, chunkSize, klCoef, precision, strategy } = state;
  return JSON.stringify([estimator, gamma, lambd, chunkSize, klCoef, precision, strategy]);
}

/** Whether a result was computed from these inputs and settings (a failed or cancelled run leaves an older one). */
export function resultIsOf(result: PlaygroundResult, state: PlaygroundState): boolean {
  return result.input.data === state.data && settingsKey(result.input) === settingsKey(state);
}

/** Why the results on screen are not of the editor's inputs (null when they are, or while a run computes). */
export function behindNote(status: { behind: boolean; cancelled: boolean }): string | null {
  if (!status.behind) return null;
  const why = status.cancelled ? "the newest run was cancelled" : "the newest run failed";
  return `Previous batch: ${why}, so these charts and the heatmap are of the batch and settings before it.`;
}

/** The batch a run was asked for, as an error names it: the file's rows or the preset's shape. */
export function describeBatch(state: PlaygroundState, rows: PlaygroundRow[]): string {
  const longest = rows.reduce((max, row) => Math.max(max, row.length), 0);
  const shape = `${rows.length} × ${longest} tokens`;
  const data = state.data;
  return data.source === "preset"
    ? `the ${data.preset} preset (${shape}, seed ${data.seed})`
    : `the batch of ${rows.length} row${rows.length === 1 ? "" : "s"} (${shape})`;
}

export function messageOf(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason);
}
