import type { RegionId } from "./frame";
import type { PhaseId, PlayerTrace, StepKind } from "./trace";

/** Every control on the player's screen; each one is explained by some stop of the tour. */
export const CONTROLS = [
  "play",
  "step-back",
  "step-forward",
  "previous-phase",
  "next-phase",
  "scrubber",
  "speed",
  "time-toggle",
  "focus-row",
  "case-file",
  "example",
  "tour",
  "shortcuts",
  "formula-card",
] as const;
export type ControlId = (typeof CONTROLS)[number];

/** Which step a stop shows: the first step of `phase` (and `kind`), in `chunk`, at position `k` or the chunk's last. */
export interface TourTarget {
  phase: PhaseId;
  kind?: StepKind;
  chunk?: number;
  k?: number;
}

export interface TourStop {
  title: string;
  /** Plain sentences (no markup). */
  text: string[];
  target: TourTarget;
  highlights: RegionId[];
  explains: ControlId[];
}

/** From the serial loop to the chunked scan, in seven stops; it drives the real player. */
export const TOUR: TourStop[] = [
  {
    title: "1 · The serial loop",
    text: [
      "A return adds a token's reward to the discounted return of everything after it: G_t = r_t + γ·G_(t+1), starting from the last token.",
      "The serial lane and the panel “Serial loop” run it in float64, one token after the other, right to left in original time. That is the truth every other number is checked against, and it is T steps long whatever the hardware.",
    ],
    target: { phase: "local", chunk: 0, k: 2 },
    highlights: ["serial-panel", "serial-lane", "input-lane"],
    explains: ["step-forward", "step-back"],
  },
  {
    title: "2 · Turn time around, pad to chunks",
    text: [
      "slime reverses each row (x_i = r_(T−1−i)) so the scan runs forwards, then pads it with zeros to a whole number of chunks of C tokens. In original time the padding sits before t = 0 (hatched), so it can never reach a real output; the short chunk is the one at the start of the sequence.",
      "The toggle “Reversed time” shows the rows as slime stores them. GAE first computes its TD residuals δ and scans them with γλ; REINFORCE++ first builds its token rewards and right-pads its ragged rows: those steps come before this one.",
    ],
    target: { phase: "reverse" },
    highlights: ["input-lane", "time-toggle"],
    explains: ["time-toggle", "example", "case-file"],
  },
  {
    title: "3 · A chunk's local scan is a matrix product",
    text: [
      "Inside a chunk, every local sum is one row of M (upper-triangular, M[i][j] = γ^(j−i)) times the chunk's values: the highlighted cells feed the current value, the active row of M holds their powers of γ.",
      "The local sums ignore everything after the chunk: they start from zero.",
    ],
    target: { phase: "local", chunk: 0, k: 3 },
    highlights: ["matrix", "local-lane", "input-lane"],
    explains: ["focus-row"],
  },
  {
    title: "4 · Every chunk at once",
    text: [
      "Chunks do not depend on each other's local sums, so one matrix product computes all of them in parallel: that is where a GPU wins.",
      "Compare the local lane of chunk 1 with the serial lane: it misses the part of the return that comes from the tokens after the chunk. Shift+→ jumps from chunk to chunk (“Next phase”).",
    ],
    target: { phase: "local", kind: "chunk-end", chunk: 1 },
    highlights: ["local-lane", "serial-lane"],
    explains: ["next-phase", "previous-phase"],
  },
  {
    title: "5 · The carry",
    text: [
      "The carry into a chunk is the final value at the end of the chunk before it (in scan order), s = G at that token. Everything after the chunk is summed up in that one number.",
      "Position k of the chunk is k+1 tokens away from it, so it adds s·γ^(k+1): the carry arrow shows s, the panel each s·γ^(k+1). Only this short loop over chunks is serial: T/C steps instead of T.",
    ],
    target: { phase: "carry", chunk: 1 },
    highlights: ["carry-lane", "result-lane", "matrix"],
    explains: ["play", "speed"],
  },
  {
    title: "6 · Check every cell",
    text: [
      "The chunked result is compared with the float64 serial loop cell by cell. The error lane colours each |error| by decade; a cell over its own error bound (derived from the roundings on its path) carries a ✕.",
      "Hover or focus any output to see its formula with the real numbers: local sum + carry·γ^(k+1), the serial value it must equal, and the difference.",
    ],
    target: { phase: "compare" },
    highlights: ["result-lane", "serial-lane", "error-lane"],
    explains: ["formula-card"],
  },
  {
    title: "7 · Drive it yourself",
    text: [
      "Play runs the steps at the chosen speed; the scrubber jumps anywhere (its ticks mark the phases), and every step is drawn from the run's numbers alone, so going back lands on exactly the same picture.",
      "Keys: Space, ← →, Shift+← →, Home, End, [ ] for the speed, ↑ ↓ for the row; “?” lists them. Load your own case file or pick an example; this tour stays under “Tour”.",
    ],
    target: { phase: "reverse" },
    highlights: ["transport", "scrubber"],
    explains: ["play", "scrubber", "speed", "shortcuts", "tour", "case-file", "example"],
  },
];

/** The step a stop shows in this trace (its chunk clamped to the trace's chunks). */
export function tourCursor(trace: PlayerTrace, target: TourTarget): number {
  const { steps } = trace;
  const chunk = target.chunk === undefined ? undefined : Math.min(target.chunk, trace.replay.nChunks - 1);
  let found = -1;
  for (let s = 0; s < steps.length; s++) {
    const step = steps[s];
    if (step.phase !== target.phase) continue;
    if (target.kind && step.kind !== target.kind) continue;
    if (chunk !== undefined && step.chunk !== chunk) continue;
    if (found < 0) found = s;
    if (target.k === undefined || step.k > target.k) break;
    found = s;
  }
  if (found >= 0) return found;
  // A step kind this trace lacks (no chunk-end steps when whole chunks are one step): any step there.
  if (target.kind) return tourCursor(trace, { ...target, kind: undefined });
  const phase = trace.phases.find((p) => p.id === target.phase);
  return phase ? phase.first : 0;
}
