import { formatShort } from "../../io/formatNumber";
import { errorSummary } from "./errorSummary";
import type { RegionId } from "./frame";
import { setChunkSize, setGamma, setReward, type TourTry, tourTry } from "./tourTry";
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
  /** The one change the stop asks the learner to try. */
  try: TourTry;
}

/** The example the tour runs on (see source.ts for why it was chosen). */
export const TOUR_EXAMPLE = "tour";

/**
 * From the serial loop to the checked result, in nine stops that only move forward through the
 * trace (each later stop's step comes after the one before), in the carry notation of the
 * glossary: s_c is the carry into chunk c, and position k adds s_c·d^(k+1), d the discount. Every
 * carry of the tour's example has a stop of its own, in the order the scan makes them. Chunks are
 * numbered as the code numbers them, in scan order (right to left in original time); stop 2 says so.
 * Each stop ends with one change to try (tourTry.ts), whose outcome is read from the rerun.
 */
export const TOUR: TourStop[] = [
  {
    title: "1 · The serial loop, turned around",
    text: [
      "A return adds a token's reward to the discounted return of everything after it: G_t = r_t + γ·G_(t+1), from the last token back to the first. The panel “Serial loop” runs exactly that in float64: the truth every other number is checked against.",
      "slime first reverses each row (x_i = r_(T−1−i)), so the recursion becomes a forward scan. “Reversed time” draws the rows as slime stores them; → steps forward, ← back.",
    ],
    target: { phase: "reverse" },
    shows: "Reverse time",
    highlights: ["serial-panel", "input-lane", "time-toggle"],
    explains: ["step-forward", "step-back", "time-toggle"],
    try: tourTry(setGamma(1), (was, now, before, after) => [
      "At γ = 1 nothing is discounted: G_0 = ",
      now.serial(0),
      `, the plain sum of all ${after.replay.cols} rewards (at γ = ${gammaOf(before)} it was `,
      was.serial(0),
      ").",
    ]),
  },
  {
    title: "2 · Pad to whole chunks",
    text: [
      "The reversed row is cut into chunks of C tokens (C = 4 here), and zeros fill the last one. In original time that short chunk is the start of the sequence; its padding (hatched) sits before t = 0 and never reaches a real output.",
      "Chunks are numbered in scan order, so right to left on the stage: chunk 0 is the last 4 tokens (t = 10…13), the short chunk 3 the first two. That is slime's reversed row read left to right; every label here, s_c included, counts this way.",
    ],
    target: { phase: "pad" },
    shows: "Pad each reversed row",
    highlights: ["input-lane"],
    explains: [],
    try: tourTry(setChunkSize(7), (was, now, before, after) => {
      const { chunkSize: C, cols: T } = after.replay;
      return [
        `C = ${C} cuts T = ${T} tokens into `,
        now.chunks(),
        " chunks with ",
        now.padding(),
        ` padding zeros (C = ${before.replay.chunkSize} made `,
        was.chunks(),
        " and ",
        was.padding(),
        "). C cuts the work differently, not the result: the engine's G_0 is now ",
        now.output(0),
        ", the serial loop's ",
        now.serial(0),
        ".",
      ];
    }),
  },
  {
    title: "3 · A chunk's local scan is a matrix product",
    text: [
      "Chunk 0 holds the last C tokens. Each of its local sums is one row of M (upper-triangular, M[i][j] = d^(j−i)) times the chunk's values: the outlined cells feed the current sum, the active row of M holds their powers of d.",
      "Local sums start from zero and ignore everything after their chunk; nothing comes after chunk 0, so its sums are final. With several rows, ↑ ↓ or “Focus row” choose the row the panels follow.",
    ],
    target: { phase: "local", chunk: 0, k: 2 },
    shows: "the local sum adds",
    highlights: ["matrix", "local-lane", "input-lane"],
    explains: ["focus-row"],
    try: tourTry(setGamma(0.5), (was, now, before, after) => {
      const t = now.tokenAt(0, 2);
      return [
        `With d = ${gammaOf(after)} the row of M holds 1, d, d², smaller powers: the local sum at k = 2 is `,
        now.local(0, 2),
        ` (at d = ${gammaOf(before)} it was `,
        was.local(0, 2),
        `). Nothing comes after chunk 0, so it is already the return: the serial loop's G_${t} = `,
        now.serial(t),
        ".",
      ];
    }),
  },
  {
    title: "4 · Chunk by chunk, each from zero",
    text: [
      "The player scans the chunks one after the other so you can follow; the engine computes every chunk's local sums in one matrix product, since none depends on another. That is where a GPU wins.",
      "Compare chunk 1's local sums with the serial lane under them: they miss the return of everything after the chunk (here the reward of 1 on the last token). Shift+→ (“Next phase”) jumps from chunk to chunk, Shift+← back.",
    ],
    target: { phase: "local", kind: "chunk-end", chunk: 1 },
    shows: "Chunk 1 is scanned",
    highlights: ["local-lane", "serial-lane", "input-lane", "matrix"],
    explains: ["next-phase", "previous-phase"],
    try: tourTry(setReward("Set the last reward to 0", -1, 0), (was, now, _before, after) => {
      const k = now.lastK(1);
      const t = now.tokenAt(1, k);
      const local = [was.local(1, k), now.local(1, k)];
      const bound = after.replay.bound[t];
      // An infinite or NaN bound checks nothing: then the sentence does not claim the local sum is the return.
      const whole = Number.isFinite(bound) && Math.abs(local[1].value - after.replay.serial[t]) <= bound;
      return [
        `Chunk 1's local sums ${Object.is(local[0].value, local[1].value) ? "did not move" : "moved"}: the last one, at t = ${t}, was `,
        local[0],
        " and is ",
        local[1],
        `. The serial loop's G_${t} went from `,
        was.serial(t),
        " to ",
        now.serial(t),
        whole
          ? ": with nothing after chunk 1, its local sum is now the whole return."
          : ": the local sum still misses what comes after chunk 1.",
      ];
    }),
  },
  {
    title: "5 · The carry into chunk 1",
    text: [
      "The carry into chunk c, s_c, is the final value at the end of chunk c−1 (in scan order): everything after chunk c in one number. Position k of chunk c is k+1 tokens away from it, so it adds s_c·d^(k+1). Chunk 0 has nothing after it: s_0 = 0.",
      "The arrow shows s_1, the panel each s_1·d^(k+1) and the final value it makes. Play runs the steps at the chosen speed.",
    ],
    target: { phase: "carry", chunk: 1 },
    shows: "Carry into chunk 1",
    highlights: ["carry-lane", "result-lane", "local-lane"],
    explains: ["play", "speed"],
    try: tourTry(setGamma(1), (was, now, before) => {
      const t = now.tokenAt(0, now.lastK(0));
      return [
        "At γ = 1 the carry is the plain sum of the later chunk: s_1 = ",
        now.carry(1),
        `, chunk 0's rewards added up (the serial loop's G_${t} = `,
        now.serial(t),
        `), and every position of chunk 1 adds s_1 itself, since 1^(k+1) = 1. At γ = ${gammaOf(before)}, s_1 was `,
        was.carry(1),
        ".",
      ];
    }),
  },
  {
    title: "6 · The carry into chunk 2",
    text: [
      "s_2 is chunk 1's last final value: chunk 1's own last local sum plus s_1·d^4, the carry handed on across chunk 1's four tokens. Each carry needs the one before it: this chain over the chunks is the scan's only serial part, T/C steps instead of T.",
      "The arrow now points into chunk 2; the panel adds s_2·d^(k+1) to each of its local sums.",
    ],
    target: { phase: "carry", chunk: 2 },
    shows: "Carry into chunk 2",
    highlights: ["carry-lane", "result-lane", "local-lane"],
    explains: [],
    try: tourTry(setReward("Set r_8, chunk 1's only reward, to 0", 8, 0), (was, now, _before, after) => {
      const C = after.replay.chunkSize;
      return [
        "Chunk 1 now adds nothing of its own: s_2 = ",
        now.carry(2),
        " (it was ",
        was.carry(2),
        `), which is s_1·d^${C} = `,
        now.carry(1),
        ` · ${formatShort(after.replay.carryPowers[C - 1])}: the carry from chunk 0, handed on and discounted across chunk 1.`,
      ];
    }),
  },
  {
    title: "7 · The carry into chunk 3",
    text: [
      "The last carry, s_3, enters the short chunk 3 (t = 0…1): it is G_2, the return of everything after that chunk. With it every chunk has its carry: three serial steps for 14 tokens.",
      "A carry is always the serial return at a chunk's boundary, computed once per chunk instead of once per token.",
    ],
    target: { phase: "carry", chunk: 3 },
    shows: "Carry into chunk 3",
    highlights: ["carry-lane", "result-lane", "local-lane"],
    explains: [],
    // The chunk that starts at t = 1 after the change: 14 tokens in chunks of 2 make chunks 0…6.
    try: tourTry(
      setChunkSize(2),
      (was, now, before, after) => {
        const c = now.chunkOf(1);
        const c0 = was.chunkOf(1);
        const t = now.tokenAt(c, 0) + 1;
        return [
          `C = ${after.replay.chunkSize} cuts the row into `,
          now.chunks(),
          ` chunks: ${after.replay.nChunks - 1} carries, one serial step each, instead of ${before.replay.nChunks - 1}. The carry into the chunk that starts at t = 1 is now s_${c} = `,
          now.carry(c),
          `; it was s_${c0} = `,
          was.carry(c0),
          ` at C = ${before.replay.chunkSize}: both are G_${t} = `,
          now.serial(t),
          ".",
        ];
      },
      { phase: "carry", chunk: 6 },
    ),
  },
  {
    title: "8 · Back to original time",
    text: [
      "Once every chunk has its carry, the padding is dropped and time turned back: these are the chunked returns G_t as the engine computed them.",
      "Hover, focus or tap an output for its formula card: local sum + s_c·d^(k+1) with the real numbers, the serial value it must equal, and the difference. “Example” has other batches (GAE and REINFORCE++ run this scan after steps of their own), or open a case file.",
    ],
    target: { phase: "combine" },
    shows: "Un-pad and reverse back",
    highlights: ["result-lane"],
    explains: ["formula-card", "example", "case-file"],
    try: tourTry(setChunkSize(1), (_was, now, _before, after) => {
      const { nChunks, cols } = after.replay;
      return [
        "With C = 1 every token is its own chunk: ",
        now.chunks(),
        ` chunks, each local sum is just its reward, and the carries are the serial loop again, ${nChunks - 1} steps for ${cols} tokens: nothing left to do in parallel. G_0 = `,
        now.output(0),
        ", the serial loop's ",
        now.serial(0),
        ".",
      ];
    }),
  },
  {
    title: "9 · Check every cell",
    text: [
      "Every output is compared with the float64 serial loop. The error lane colours each |error| by decade; a cell over its error bound (derived from the roundings on its path) carries a ✕.",
      "Now drive it yourself: the scrubber jumps anywhere, and going back lands on the same picture. Keys: Space, ← →, Shift+← →, Home, End, [ ] for the speed, ↑ ↓ for the row; “?” lists them. The tour stays under “Tour”.",
    ],
    target: { phase: "compare" },
    shows: "Compare with the float64 serial loop",
    highlights: ["result-lane", "serial-lane", "error-lane", "transport", "scrubber"],
    explains: ["scrubber", "shortcuts", "tour"],
    try: tourTry(setChunkSize(16), (was, now, before, after) => {
      const over = now.overBound();
      const checked = errorSummary(after.replay);
      return [
        `With C = ${after.replay.chunkSize} the row is `,
        now.chunks(),
        ` chunk${after.replay.nChunks === 1 ? ", so no carry at all" : "s"}. The largest |error| is `,
        now.maxError(),
        ` (with ${before.replay.nChunks} chunks it was `,
        was.maxError(),
        `); outputs over their bound: `,
        over,
        ` of the ${checked.cells} checked${checked.nonFinite > 0 ? ` (${checked.nonFinite} with a NaN or ±Inf reference or bound: nothing to check them against)` : ""}.`,
      ];
    }),
  },
];

/** γ as the reference holds it, for the outcome's words (d for the discounted returns). */
function gammaOf(trace: PlayerTrace): string {
  return formatShort(trace.replay.discount);
}

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
