/**
 * What the playground shows, decided in one place: the committed inputs and settings come in, a
 * run of them goes out, and its results come back, first core's (a teaching-size batch computed
 * on the spot) and then the final one (the engine's, or core's worker at big sizes). A newer
 * input supersedes the run in flight; a cancel holds its inputs until a rerun or a change. The
 * hook (usePlaygroundCompute) only carries out what this state says: it starts the run whose id
 * it sees and reports back with that id, so an answer of a superseded run is dropped here.
 *
 * Pure: no React, no timers, no workers; `now` comes with the events that need it.
 */
import type { RunPhase } from "./playgroundRun";

/** What a run is of. Two keys are the same run when every field is identical. */
export interface RunKey {
  /** settingsKey of the state: the settings that change what is computed. */
  settings: string;
  /** The state's data object (rows are compared by identity: every edit makes a new one). */
  data: object;
  /**
   * The engine the final result needs (its ready report: a new worker is a new run), or null
   * when the engine is not up yet or not needed (core's precisions).
   */
  engine: object | null;
  /**
   * A stroke's draft (a teaching-size batch): core's result of it is shown as the pointer moves,
   * and its run waits, never finished, until the stroke's end commits the same inputs.
   */
  draft: boolean;
}

/** A result on screen is core's result shown until the final one comes, or the final one. */
export type ResultSource = "preview" | "final";

export interface Shown<R> {
  result: R;
  key: RunKey;
  source: ResultSource;
}

export interface Run {
  id: number;
  key: RunKey;
  startedAt: number;
  phase: RunPhase | null;
}

export interface ComputeState<R> {
  /** The committed inputs and settings. */
  wanted: RunKey | null;
  /** The run in flight, or null. */
  run: Run | null;
  shown: Shown<R> | null;
  /** The last result every panel has drawn (the view reports it). */
  drawn: R | null;
  /** Results drawn so far, either source: scripts wait for it to change to see an edit on screen. */
  draws: number;
  /** Final results that have arrived: scripts wait for it to change after an edit. */
  runs: number;
  /** Inputs whose run was cancelled: not run again until a rerun or a change. */
  held: RunKey | null;
  error: string | null;
  cancelled: boolean;
  nextId: number;
}

/** What core computed of a run's inputs at once (a teaching-size batch), if it did. */
export type AtOnce<R> = { result: R; source: ResultSource } | { error: string };

export type ComputeEvent<R> =
  /**
   * The committed inputs, or the engine, changed (also sent when nothing did: ignored then), with
   * core's result of them when it was computed at once: the run starts with it on screen.
   */
  | { type: "want"; key: RunKey; now: number; atOnce?: AtOnce<R> }
  | { type: "phase"; id: number; phase: RunPhase }
  | { type: "preview"; id: number; result: R }
  | { type: "final"; id: number; result: R }
  | { type: "failed"; id: number; message: string }
  | { type: "drawn"; result: R }
  | { type: "cancel" }
  | { type: "rerun"; now: number };

export function initialCompute<R>(): ComputeState<R> {
  return {
    wanted: null,
    run: null,
    shown: null,
    drawn: null,
    draws: 0,
    runs: 0,
    held: null,
    error: null,
    cancelled: false,
    nextId: 1,
  };
}

export function sameKey(a: RunKey | null, b: RunKey | null): boolean {
  return (
    a === b ||
    (a !== null &&
      b !== null &&
      a.settings === b.settings &&
      a.data === b.data &&
      a.engine === b.engine &&
      a.draft === b.draft)
  );
}

/** The same inputs and settings, whichever engine. */
export function sameInputs(a: RunKey | null, b: RunKey | null): boolean {
  return a === b || (a !== null && b !== null && a.settings === b.settings && a.data === b.data);
}

function start<R>(state: ComputeState<R>, key: RunKey, now: number): ComputeState<R> {
  return {
    ...state,
    run: { id: state.nextId, key, startedAt: now, phase: null },
    nextId: state.nextId + 1,
    cancelled: false,
  };
}

export function computeReducer<R>(state: ComputeState<R>, event: ComputeEvent<R>): ComputeState<R> {
  const current = (id: number) => state.run?.id === id;
  switch (event.type) {
    case "want": {
      if (sameKey(state.wanted, event.key)) return state;
      const next = { ...state, wanted: event.key };
      // A cancel stops the engine's worker and a new one comes up: the same inputs on it stay held.
      if (sameInputs(state.held, event.key)) return { ...next, run: null, held: event.key };
      const started = start({ ...next, held: null }, event.key, event.now);
      const id = started.run?.id ?? 0;
      const atOnce = event.atOnce;
      if (!atOnce) return started;
      if ("error" in atOnce) return computeReducer(started, { type: "failed", id, message: atOnce.error });
      return computeReducer(started, { type: atOnce.source, id, result: atOnce.result });
    }
    case "phase":
      if (!current(event.id) || !state.run) return state;
      return { ...state, run: { ...state.run, phase: event.phase } };
    case "preview":
      if (!current(event.id) || !state.run) return state;
      return {
        ...state,
        shown: { result: event.result, key: state.run.key, source: "preview" },
        error: null,
      };
    case "final":
      if (!current(event.id) || !state.run) return state;
      return {
        ...state,
        shown: { result: event.result, key: state.run.key, source: "final" },
        run: null,
        error: null,
        runs: state.runs + 1,
      };
    case "failed":
      if (!current(event.id) || !state.run) return state;
      return { ...state, run: null, error: event.message };
    case "drawn":
      if (event.result === state.drawn) return state;
      return { ...state, drawn: event.result, draws: state.draws + 1 };
    case "cancel":
      if (!state.run) return state;
      return { ...state, run: null, held: state.run.key, cancelled: true };
    case "rerun":
      if (!state.wanted || state.run) return state;
      return start({ ...state, held: null }, state.wanted, event.now);
  }
}

/** What the page says about the state, read off it. */
export interface ComputeView<R> {
  result: R | null;
  source: ResultSource | null;
  /** A run is in flight (the result on screen, if any, is core's or of earlier inputs). */
  computing: boolean;
  /** The final result of the committed inputs is not drawn yet: `results` is aria-busy. */
  busy: boolean;
  /** The result on screen is not of the committed inputs (the newest run failed or was cancelled). */
  behind: boolean;
}

export function viewOf<R>(state: ComputeState<R>): ComputeView<R> {
  const shown = state.shown;
  const computing = state.run !== null;
  return {
    result: shown?.result ?? null,
    source: shown?.source ?? null,
    computing,
    busy: computing || (shown !== null && state.drawn !== shown.result),
    behind: shown !== null && !computing && !sameInputs(shown.key, state.wanted),
  };
}
