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
  /** Words the step's own caption says on the tour's example: the stop shows what it talks about. */
  shows: string;
  highlights: RegionId[];
  explains: ControlId[];
}

/** The example the tour runs on (see source.ts for why it was chosen). */
export const TOUR_EXAMPLE = "tour";

/**
 * From the serial loop to the checked result, in seven stops that only move forward through the
 * trace (each later stop's step comes after the one before), in the carry notation of the
 * glossary: s_c is the carry into chunk c, and position k adds s_c·d^(k+1), d the discount.
 */
export const TOUR: TourStop[] = [
  {
    title: "1 · The serial loop, turned around",
    text: [
      "A return adds a token's reward to the discounted return of everything after it: G_t = r_t + γ·G_(t+1), from the last token back to the first. The panel “Serial loop” runs exactly that in float64, one token after the other: the truth every other number is checked against, T steps long whatever the hardware.",
      "slime first reverses each row (x_i = r_(T−1−i)), so the backward recursion becomes a forward scan. The toggle “Reversed time” draws the rows as slime stores them; → steps forward, ← back.",
    ],
    target: { phase: "reverse" },
    shows: "Reverse time",
    highlights: ["serial-panel", "input-lane", "time-toggle"],
    explains: ["step-forward", "step-back", "time-toggle"],
  },
  {
    title: "2 · Pad to whole chunks",
    text: [
      "The reversed row is cut into chunks of C tokens (C = 4 here), and zeros fill the last one. In original time that short chunk is the start of the sequence, its padding (hatched) sits before t = 0, so it never reaches a real output.",
      "GAE first computes its TD residuals δ and scans them with the discount d = γλ; REINFORCE++ first builds its token rewards and right-pads its ragged rows: in their examples those steps come before this one. Pick one under “Example”, or load your own case file.",
    ],
    target: { phase: "pad" },
    shows: "Pad each reversed row",
    highlights: ["input-lane"],
    explains: ["example", "case-file"],
  },
  {
    title: "3 · A chunk's local scan is a matrix product",
    text: [
      "Chunk 0 holds the last C tokens of the sequence. Each of its local sums is one row of M (upper-triangular, M[i][j] = d^(j−i)) times the chunk's values: the outlined cells feed the current sum, the active row of M holds their powers of d.",
      "Local sums start from zero: they ignore everything after the chunk. Nothing comes after chunk 0, so its local sums are already final. With several rows, ↑ ↓ or “Focus row” choose the row the panels follow.",
    ],
    target: { phase: "local", chunk: 0, k: 2 },
    shows: "the local sum adds",
    highlights: ["matrix", "local-lane", "input-lane"],
    explains: ["focus-row"],
  },
  {
    title: "4 · Chunk by chunk, each from zero",
    text: [
      "The player scans the chunks one after the other so you can follow them; the engine computes every chunk's local sums in one matrix product, since none depends on another's. That is where a GPU wins.",
      "Compare chunk 1's local sums with the serial lane under them: they miss the return of everything after the chunk (here the reward of 1 on the last token). Shift+→ (“Next phase”) jumps from chunk to chunk, Shift+← back.",
    ],
    target: { phase: "local", kind: "chunk-end", chunk: 1 },
    shows: "Chunk 1 is scanned",
    highlights: ["local-lane", "serial-lane", "input-lane", "matrix"],
    explains: ["next-phase", "previous-phase"],
  },
  {
    title: "5 · The carry",
    text: [
      "The carry into chunk c, s_c, is the final value at the end of chunk c−1 (in scan order): everything after chunk c, summed into one number. Position k of chunk c is k+1 tokens away from it, so it adds s_c·d^(k+1).",
      "The arrow shows s_1, the panel each s_1·d^(k+1) and the final value it makes. This loop over chunks is the only serial part: T/C steps instead of T. Play runs the steps at the chosen speed.",
    ],
    target: { phase: "carry", chunk: 1 },
    shows: "Carry into chunk 1",
    highlights: ["carry-lane", "result-lane", "local-lane"],
    explains: ["play", "speed"],
  },
  {
    title: "6 · Back to original time",
    text: [
      "Once every chunk has its carry, the padding is dropped and time turned back: these are the chunked returns G_t as the engine computed them.",
      "Hover, focus or tap any cell to read its number; an output opens the formula card, its arithmetic with the real numbers: the local sum + s_c·d^(k+1), the serial value it must equal, and the difference.",
    ],
    target: { phase: "combine" },
    shows: "Un-pad and reverse back",
    highlights: ["result-lane"],
    explains: ["formula-card"],
  },
  {
    title: "7 · Check every cell",
    text: [
      "Every output is compared with the float64 serial loop. The error lane colours each |error| by decade; a cell over its error bound (derived from the roundings on its path) carries a ✕.",
      "Now drive it yourself: the scrubber jumps anywhere (its ticks mark the phases), and going back lands on exactly the same picture. Keys: Space, ← →, Shift+← →, Home, End, [ ] for the speed, ↑ ↓ for the row; “?” lists them. This tour stays under “Tour”.",
    ],
    target: { phase: "compare" },
    shows: "Compare with the float64 serial loop",
    highlights: ["result-lane", "serial-lane", "error-lane", "transport", "scrubber"],
    explains: ["scrubber", "shortcuts", "tour"],
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
