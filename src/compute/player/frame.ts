import { stepCaption } from "./captions";
import { carryTerm, kernelEntry, localIndex, type Replay, tokenOf } from "./replay";
import { type Phase, type PlayerTrace, phaseDone, phaseReached, type Step, validInChunk } from "./trace";

/** The parts of the player a step draws attention to (the tour and the narrative use the same ids). */
export type RegionId =
  | "input-lane"
  | "local-lane"
  | "carry-lane"
  | "result-lane"
  | "serial-lane"
  | "error-lane"
  | "matrix"
  | "serial-panel"
  | "transport"
  | "scrubber"
  | "time-toggle"
  | "narrative";

/** What has been computed at a step; everything on the stage follows from it. */
export interface Reveal {
  /** What the input lane holds: REINFORCE++ builds its token rewards in two steps. */
  input: "rewards" | "residuals" | "penalty" | "token-rewards";
  /** REINFORCE++: the zeros that pad short rows to [B, max L]. */
  batchPad: boolean;
  /** The zeros that pad the reversed rows to a whole number of chunks. */
  chunkPad: boolean;
  /** Local values known: every chunk below `localChunk`, and chunk `localChunk` up to position `localK`. */
  localChunk: number;
  localK: number;
  /** Chunks whose carry has been added (their combined values are known). */
  carried: number;
  /** Reversed positions the serial loop has reached, in lockstep with the local scans. */
  serialUpTo: number;
  /** The engine's outputs (after the combine step). */
  final: boolean;
  /** GAE: the returns `A + V`. */
  gaeReturns: boolean;
  /** REINFORCE++: rows cut back to their own lengths. */
  trimmed: boolean;
  /** Errors against the serial reference. */
  errors: boolean;
}

export interface MatrixView {
  chunk: number;
  /** Active position (reversed time) in the chunk: the output being formed. */
  k: number;
  valid: number;
  /** The focus row's chunk values x_l (0 in the padding), reversed time. */
  x: number[];
  /** `fl32(x_l · d^(k−l))` for l ≤ k: the terms the local sum adds, in order. */
  terms: number[];
  /** The engine's local value at (chunk, k). */
  sum: number;
}

export interface CarryView {
  chunk: number;
  valid: number;
  /** The carry entering the chunk (the engine's), and where it comes from (t, value), if any. */
  carry: number;
  sourceT: number;
  locals: number[];
  /** `fl32(s_c·d^(k+1))` and the combined values, per position (valid ones only). */
  terms: number[];
  combined: number[];
}

export interface SerialLine {
  t: number;
  x: number;
  /** G_{t+1}, 0 past the end. */
  next: number;
  value: number;
}

export interface Frame {
  cursor: number;
  total: number;
  step: Step;
  phase: Phase;
  caption: string;
  focusRow: number;
  reveal: Reveal;
  matrix?: MatrixView;
  carry?: CarryView;
  /** The serial loop's latest lines for the focus row, newest first. */
  serialLines: SerialLine[];
  /** The chunk the step works on, for the chunk bands and the window at large sizes. */
  focusChunk: number;
  regions: RegionId[];
}

export function frame(trace: PlayerTrace, cursor: number, focusRow: number): Frame {
  const total = trace.steps.length;
  const at = Math.max(0, Math.min(total - 1, Math.round(cursor)));
  const step = trace.steps[at];
  const r = trace.replay;
  const row = Math.max(0, Math.min(r.rows - 1, focusRow));
  const reveal = revealAt(trace, step);
  const phase = trace.phases.find((p) => p.id === step.phase) as Phase;
  const matrix =
    step.kind === "local" || step.kind === "chunk-end" ? matrixView(r, row, step.chunk, step.k) : undefined;
  const carry = step.kind === "carry" ? carryView(r, row, step.chunk) : undefined;
  return {
    cursor: at,
    total,
    step,
    phase,
    caption: stepCaption(trace, step, row),
    focusRow: row,
    reveal,
    matrix,
    carry,
    serialLines: serialLines(r, row, reveal.serialUpTo, 3),
    focusChunk: focusChunkOf(trace, step),
    regions: regionsOf(step),
  };
}

export function revealAt(trace: PlayerTrace, step: Step): Reveal {
  const r = trace.replay;
  const reached = (id: Parameters<typeof phaseReached>[2]) => phaseReached(trace, step, id);
  const done = (id: Parameters<typeof phaseDone>[2]) => phaseDone(trace, step, id);
  const input =
    r.kind === "gae"
      ? "residuals"
      : r.kind === "reinforce_pp"
        ? step.kind === "kl-penalty"
          ? "penalty"
          : "token-rewards"
        : "rewards";
  let localChunk = -1;
  let localK = -1;
  if (done("local")) {
    localChunk = r.nChunks;
  } else if (step.phase === "local") {
    localChunk = step.chunk;
    localK = step.k;
  }
  let serialUpTo = 0;
  if (done("local")) serialUpTo = r.cols;
  else if (step.phase === "local") serialUpTo = Math.min(r.cols, step.chunk * r.chunkSize + step.k + 1);
  const carried = done("carry") ? r.nChunks : step.phase === "carry" ? step.chunk + 1 : 0;
  return {
    input,
    batchPad: r.kind === "reinforce_pp" && reached("pad-batch"),
    chunkPad: reached("pad"),
    localChunk,
    localK,
    carried,
    serialUpTo,
    final: reached("combine"),
    gaeReturns: r.kind === "gae" && (step.kind === "gae-returns" || done("combine")),
    trimmed: reached("trim") && r.kind === "reinforce_pp",
    errors: reached("compare"),
  };
}

/** Is the local value at (chunk c, position k) known? */
export function localKnown(reveal: Reveal, c: number, k: number): boolean {
  return c < reveal.localChunk || (c === reveal.localChunk && k <= reveal.localK);
}

function focusChunkOf(trace: PlayerTrace, step: Step): number {
  if (step.chunk >= 0) return step.chunk;
  const r = trace.replay;
  // Before the scan: the chunk the scan starts with (the end of the sequence); after: the last one.
  return phaseReached(trace, step, "combine") ? r.nChunks - 1 : 0;
}

function regionsOf(step: Step): RegionId[] {
  switch (step.kind) {
    case "local":
    case "chunk-end":
      return ["input-lane", "local-lane", "matrix", "serial-lane", "serial-panel"];
    case "carry":
      return ["carry-lane", "result-lane", "local-lane", "matrix"];
    case "combine":
    case "gae-returns":
    case "trim":
      return ["result-lane"];
    case "compare":
      return ["result-lane", "serial-lane", "error-lane"];
    case "reverse":
      return ["input-lane", "time-toggle"];
    default:
      return ["input-lane"];
  }
}

export function matrixView(r: Replay, b: number, c: number, k: number): MatrixView {
  const C = r.chunkSize;
  const valid = validInChunk(r, c);
  const x: number[] = [];
  for (let l = 0; l < C; l++) {
    const i = c * C + l;
    x.push(i < r.cols ? r.scanned[b * r.cols + tokenOf(r, i)] : 0);
  }
  const terms: number[] = [];
  for (let l = 0; l <= k; l++) terms.push(Math.fround(x[l] * kernelEntry(r, l, k)));
  return { chunk: c, k, valid, x, terms, sum: r.localScans[localIndex(r, b, c * C + k)] };
}

export function carryView(r: Replay, b: number, c: number): CarryView {
  const C = r.chunkSize;
  const valid = validInChunk(r, c);
  const locals: number[] = [];
  const terms: number[] = [];
  const combined: number[] = [];
  for (let k = 0; k < valid; k++) {
    const i = c * C + k;
    locals.push(r.localScans[localIndex(r, b, i)]);
    terms.push(carryTerm(r, b, c, k));
    combined.push(r.combined[b * r.cols + tokenOf(r, i)]);
  }
  return {
    chunk: c,
    valid,
    carry: r.carriesIn[b * r.nChunks + c],
    sourceT: c === 0 ? -1 : tokenOf(r, c * C - 1),
    locals,
    terms,
    combined,
  };
}

/** The serial loop `G_t = x_t + d·G_{t+1}` (float64) at its latest `count` tokens, newest first. */
export function serialLines(r: Replay, b: number, upTo: number, count: number): SerialLine[] {
  const lines: SerialLine[] = [];
  for (let i = upTo - 1; i >= 0 && lines.length < count; i--) {
    const t = tokenOf(r, i);
    const j = b * r.cols + t;
    lines.push({ t, x: r.scanned64[j], next: t + 1 < r.cols ? r.serial[j + 1] : 0, value: r.serial[j] });
  }
  return lines;
}

/**
 * The part of the stage the panel under it details (the matrix, the carry table, the summary…):
 * a tour stop that points at that part keeps the panel lit instead of dimming what it talks about.
 */
export function detailRegionOf(f: Pick<Frame, "matrix" | "carry" | "step">): RegionId {
  if (f.matrix) return "matrix";
  if (f.carry) return "carry-lane";
  if (f.step.kind === "compare") return "error-lane";
  if (f.step.kind === "combine" || f.step.kind === "gae-returns") return "result-lane";
  return "input-lane";
}
