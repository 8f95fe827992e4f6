import { materializeRows } from "../../io/playgroundProblem";
import type { PlaygroundState } from "../../io/playgroundState";
import { errorSummary } from "./errorSummary";
import { type FieldId, withRow } from "./playerEdits";
import { localIndex, reversedOf, tokenOf } from "./replay";
import type { TourTarget } from "./tour";
import { type PlayerTrace, validInChunk } from "./trace";

/**
 * The one change a tour stop asks the learner to try, and what it says happened. The change goes
 * through the player's own edit path (the controls' `editSource`), so the scan reruns on the engine;
 * the outcome is then read from the two traces, before and after, never written down in advance.
 */
export interface TourTry {
  /** The button's words: "Set γ to 1". */
  label: string;
  /** The control the change belongs to (its name starts a refusal), or the reward editor. */
  field: FieldId | "rewards";
  change(state: PlaygroundState): PlaygroundState;
  /** Where the cursor goes on the new trace; the stop's own step by default. */
  at?: TourTarget;
  /** What happened, from the trace before the change and the recomputed one. */
  outcome(before: PlayerTrace, after: PlayerTrace): OutcomePart[];
}

/** What a quoted number is, so a test can recompute it with core's float64 serial reference. */
export type Quantity =
  /** core's float64 serial G_t. */
  | "serial"
  /** The engine's chunked output G_t. */
  | "output"
  /** The engine's local sum of chunk `chunk` at position `k` (no carry). */
  | "local"
  /** The engine's carry into chunk `chunk`, s_c. */
  | "carry"
  | "chunks"
  | "padding"
  /** The largest |engine − serial| over the outputs. */
  | "max-error"
  /** How many outputs are over their error bound. */
  | "over-bound";

export interface TourNumber {
  quantity: Quantity;
  /** Read from the trace before the change, or from the recomputed one. */
  which: "before" | "after";
  value: number;
  t?: number;
  chunk?: number;
  k?: number;
}

/** Plain text, or a number read from a trace. */
export type OutcomePart = string | TourNumber;

/** The tour's example has one row: every number is row 0's. */
const B = 0;

/** Readers of one trace: each returns the number with what it is, for the outcome's sentences. */
export function readTrace(trace: PlayerTrace, which: TourNumber["which"]) {
  const r = trace.replay;
  const cols = r.cols;
  return {
    serial: (t: number): TourNumber => ({ quantity: "serial", which, t, value: r.serial[B * cols + t] }),
    output: (t: number): TourNumber => ({ quantity: "output", which, t, value: r.engineOut[B * cols + t] }),
    local: (chunk: number, k: number): TourNumber => ({
      quantity: "local",
      which,
      chunk,
      k,
      value: r.localScans[localIndex(r, B, chunk * r.chunkSize + k)],
    }),
    carry: (chunk: number): TourNumber => ({
      quantity: "carry",
      which,
      chunk,
      value: r.carriesIn[B * r.nChunks + chunk],
    }),
    chunks: (): TourNumber => ({ quantity: "chunks", which, value: r.nChunks }),
    padding: (): TourNumber => ({ quantity: "padding", which, value: r.pad }),
    maxError: (): TourNumber => ({ quantity: "max-error", which, value: errorSummary(r).maxAbs }),
    overBound: (): TourNumber => ({ quantity: "over-bound", which, value: errorSummary(r).overBound }),
    /** The chunk that holds token t (chunks count from the end of the row, in scan order). */
    chunkOf: (t: number) => Math.floor(reversedOf(r, t) / r.chunkSize),
    /** The token at position k of a chunk. */
    tokenAt: (chunk: number, k: number) => tokenOf(r, chunk * r.chunkSize + k),
    /** The chunk's last real position (short of its padding). */
    lastK: (chunk: number) => validInChunk(r, chunk) - 1,
  };
}

/** Readers of the trace before the change and of the recomputed one. */
export type TraceReader = ReturnType<typeof readTrace>;

/** A change a stop can offer: the button's words, the control it belongs to, the edit. */
export type TourChange = Pick<TourTry, "label" | "field" | "change">;

/**
 * A stop's try: the change, and its outcome told from readers of both traces (`was` before,
 * `now` after) and the traces themselves for what the readers do not quote.
 */
export function tourTry(
  change: TourChange,
  outcome: (was: TraceReader, now: TraceReader, before: PlayerTrace, after: PlayerTrace) => OutcomePart[],
  at?: TourTarget,
): TourTry {
  return {
    ...change,
    ...(at ? { at } : {}),
    outcome: (before, after) => outcome(readTrace(before, "before"), readTrace(after, "after"), before, after),
  };
}

/** γ set to `gamma`. */
export const setGamma = (gamma: number): TourChange => ({
  label: `Set γ to ${gamma}`,
  field: "gamma",
  change: (s) => ({ ...s, gamma }),
});
/** The chunk size set to `chunkSize`. */
export const setChunkSize = (chunkSize: number): TourChange => ({
  label: `Set C to ${chunkSize}`,
  field: "chunkSize",
  change: (s) => ({ ...s, chunkSize }),
});
/**
 * Row 0's reward at token t (counted from the end when negative: −1 is the last token) set to
 * `value`, as the reward editor would: the rows become inline, row 0 replaced (`withRow`).
 */
export const setReward = (label: string, t: number, value: number): TourChange => ({
  label,
  field: "rewards",
  change: (s) => {
    const row = materializeRows(s)[B];
    const rewards = Array.from({ length: row.length }, (_, i) => row.rewards?.[i] ?? 0);
    const at = t < 0 ? row.length + t : t;
    if (at >= 0 && at < rewards.length) rewards[at] = value;
    return withRow(s, B, { ...row, rewards });
  },
});
