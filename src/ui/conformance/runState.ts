import { summaryLine } from "../../conformance";
import type { ScanCase } from "../../io/caseSchema";
import type { CaseRow } from "./runConformance";

/**
 * What the conformance view shows about its runs, as one reducer. Every run has an id and every
 * action names the run it comes from: an action of any run but the newest is dropped, so a run
 * that was superseded can never write a row or a summary. The summary exists only for a run that
 * finished with a verdict for every one of its own cases.
 */
export type RunPhase = "idle" | "running" | "finished" | "stopped";

export interface RunState {
  /** The newest run; the rows below are its rows. */
  runId: number;
  phase: RunPhase;
  fileName: string | null;
  /** The run's cases; `rows` is indexed like them (a hole is a case not judged yet). */
  cases: ScanCase[];
  rows: (CaseRow | undefined)[];
  /** Judged so far, and how many of those failed. */
  done: number;
  failed: number;
  /** `N passed, M failed`, set only when the run finished, from its own verdicts. */
  summary: string | null;
  /**
   * A file chosen and not parsed yet. While it is read, what is below belongs to no file the user
   * asked for, so nothing of it is shown; a bad file clears this and the run below shows again.
   */
  reading: { readId: number; fileName: string } | null;
}

export type RunAction =
  | { type: "read"; readId: number; fileName: string }
  | { type: "read-failed"; readId: number }
  /** `readId`: the read that produced these cases, when a file did (not a menu or "Run again"). */
  | { type: "start"; runId: number; cases: ScanCase[]; fileName: string; readId?: number }
  | { type: "rows"; runId: number; rows: (readonly [index: number, row: CaseRow])[] }
  | { type: "finish"; runId: number; rows: CaseRow[] }
  | { type: "stop"; runId: number };

export const INITIAL_RUN_STATE: RunState = {
  runId: 0,
  phase: "idle",
  fileName: null,
  cases: [],
  rows: [],
  done: 0,
  failed: 0,
  summary: null,
  reading: null,
};

export function runReducer(state: RunState, action: RunAction): RunState {
  switch (action.type) {
    case "read":
      if (state.reading && state.reading.readId > action.readId) return state;
      return { ...state, reading: { readId: action.readId, fileName: action.fileName } };
    case "read-failed":
      return state.reading?.readId === action.readId ? { ...state, reading: null } : state;
    case "start": {
      if (action.runId <= state.runId) return state;
      // A newer file still being read keeps the view hidden: this run will not be its run.
      const reading = state.reading && state.reading.readId !== action.readId ? state.reading : null;
      return {
        runId: action.runId,
        phase: "running",
        fileName: action.fileName,
        cases: action.cases,
        rows: new Array(action.cases.length).fill(undefined),
        done: 0,
        failed: 0,
        summary: null,
        reading,
      };
    }
    case "rows": {
      if (action.runId !== state.runId || state.phase !== "running") return state;
      const rows = state.rows.slice();
      let { done, failed } = state;
      for (const [index, row] of action.rows) {
        if (index < 0 || index >= rows.length || rows[index] !== undefined) continue;
        rows[index] = row;
        done++;
        if (!row.verdict.passed) failed++;
      }
      return { ...state, rows, done, failed };
    }
    case "finish": {
      if (action.runId !== state.runId || state.phase !== "running") return state;
      const rows = action.rows;
      // Never a verdict for cases the run did not judge: a short answer is a stopped run.
      let complete = rows.length === state.cases.length;
      for (let i = 0; complete && i < rows.length; i++) complete = rows[i] !== undefined; // holes too
      if (!complete) return { ...state, phase: "stopped" };
      const failed = rows.filter((row) => !row.verdict.passed).length;
      const summary = summaryLine(rows.map((row) => row.verdict));
      return { ...state, phase: "finished", rows, done: rows.length, failed, summary };
    }
    case "stop":
      if (action.runId !== state.runId || state.phase !== "running") return state;
      return { ...state, phase: "stopped" };
  }
}

/** The line for `conformance-summary`: only a finished run's, and only while no new file is read. */
export function shownSummary(state: RunState): string | null {
  return state.reading === null && state.phase === "finished" ? state.summary : null;
}

/** True while the results on screen are not a finished run's (`aria-busy` on the results). */
export function isBusy(state: RunState): boolean {
  return state.reading !== null || state.phase === "running";
}

/** The table is hidden while a new file is read: its rows would belong to the previous file. */
export function showsTable(state: RunState): boolean {
  return state.reading === null && state.phase !== "idle";
}

/** What the view is doing, in words; null when it rests on a finished run. */
export function progressLine(state: RunState): string | null {
  if (state.reading) return `Reading ${state.reading.fileName}…`;
  const total = state.cases.length;
  if (state.phase === "running") {
    const failing = state.failed > 0 ? `, ${state.failed} failing so far` : "";
    return `Running: ${state.done} of ${total} cases checked${failing}…`;
  }
  if (state.phase === "stopped") return `Stopped after ${state.done} of ${total} cases: this run has no verdict.`;
  return null;
}

/** The indices of the cases to list: every case, or only the failing ones. */
export function listedCases(state: RunState, failuresOnly: boolean): number[] {
  const indices: number[] = [];
  for (let i = 0; i < state.cases.length; i++) {
    if (!failuresOnly || state.rows[i]?.verdict.passed === false) indices.push(i);
  }
  return indices;
}
