import { summaryLine } from "../../conformance";
import type { CaseInfo } from "./caseBook";
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
  cases: CaseInfo[];
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
  reading: { readId: number; fileName: string; at?: number } | null;
  /** When the run started and when its latest verdict came (performance.now()), for the elapsed times. */
  startedAt?: number;
  lastRowAt?: number;
  /** The newest run was cancelled: shown as a line above what stays (the previous run's results, if any). */
  cancelled: string | null;
  /** The last finished run, kept while a newer one runs so that a cancel can put it back. */
  previous?: RunState;
}

export type RunAction =
  | { type: "read"; readId: number; fileName: string; at?: number }
  | { type: "read-failed"; readId: number }
  /** `readId`: the read that produced these cases, when a file did (not a menu or "Run again"). */
  | { type: "start"; runId: number; cases: CaseInfo[]; fileName: string; readId?: number; at?: number }
  | { type: "rows"; runId: number; rows: (readonly [index: number, row: CaseRow])[]; at?: number }
  /** The user stopped the run: the previous finished run comes back, with a line saying so. */
  | { type: "cancel"; runId: number }
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
  cancelled: null,
};

export function runReducer(state: RunState, action: RunAction): RunState {
  switch (action.type) {
    case "read":
      if (state.reading && state.reading.readId > action.readId) return state;
      return { ...state, reading: { readId: action.readId, fileName: action.fileName, at: action.at } };
    case "read-failed":
      return state.reading?.readId === action.readId ? { ...state, reading: null } : state;
    case "start": {
      if (action.runId <= state.runId) return state;
      // A newer file still being read keeps the view hidden: this run will not be its run.
      const reading = state.reading && state.reading.readId !== action.readId ? state.reading : null;
      const previous = state.phase === "finished" ? { ...state, previous: undefined, cancelled: null } : state.previous;
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
        startedAt: action.at,
        lastRowAt: action.at,
        cancelled: null,
        previous,
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
      return { ...state, rows, done, failed, lastRowAt: action.at ?? state.lastRowAt };
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
    case "cancel": {
      if (action.runId !== state.runId || state.phase !== "running") return state;
      const what = `Cancelled the run of ${state.fileName} after ${state.done} of ${state.cases.length} cases`;
      if (!state.previous) return { ...state, phase: "stopped", cancelled: `${what}: this run has no verdict.` };
      const note = `${what}; below: the previous run's results (${state.previous.fileName}).`;
      // Later actions of the cancelled run are dropped: the id stays the cancelled run's, the phase is not "running".
      return { ...state.previous, runId: state.runId, reading: state.reading, cancelled: note };
    }
  }
}

function seconds(ms: number): string {
  return `${(Math.max(0, ms) / 1000).toFixed(1)} s`;
}

/** The case the engine is on: the first without a verdict, scan cases first (they are sent first). */
export function runningCase(state: RunState): number | null {
  let convention: number | null = null;
  for (let i = 0; i < state.cases.length; i++) {
    if (state.rows[i] !== undefined) continue;
    if (state.cases[i].kind !== "convention") return i;
    convention ??= i;
  }
  return convention;
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
export function progressLine(state: RunState, now?: number): string | null {
  if (state.reading) {
    const { at } = state.reading;
    return `Reading ${state.reading.fileName}…${now !== undefined && at !== undefined ? ` ${seconds(now - at)}` : ""}`;
  }
  const total = state.cases.length;
  if (state.phase === "running") {
    const failing = state.failed > 0 ? `, ${state.failed} failing so far` : "";
    const line = `Running: ${state.done} of ${total} cases checked${failing}…`;
    const index = runningCase(state);
    if (now === undefined || state.startedAt === undefined || index === null) return line;
    const since = state.lastRowAt ?? state.startedAt;
    return `${line} Case ${index + 1} (${state.cases[index].name}) for ${seconds(now - since)}; the run ${seconds(now - state.startedAt)}.`;
  }
  if (state.phase === "stopped" && state.cancelled) return state.cancelled;
  if (state.phase === "stopped") return `Stopped after ${state.done} of ${total} cases: this run has no verdict.`;
  return null;
}

/** The line that says the newest run was cancelled, above the previous run's results it left on screen. */
export function cancelledLine(state: RunState): string | null {
  return state.phase === "finished" && state.reading === null ? state.cancelled : null;
}

/** The indices of the cases to list: every case, or only the failing ones. */
export function listedCases(state: RunState, failuresOnly: boolean): number[] {
  const indices: number[] = [];
  for (let i = 0; i < state.cases.length; i++) {
    if (!failuresOnly || state.rows[i]?.verdict.passed === false) indices.push(i);
  }
  return indices;
}
