import type { Replay } from "./replay";

/** The named phases of the scan, in the order the reference runs them. */
export type PhaseId =
  | "token-rewards"
  | "pad-batch"
  | "residuals"
  | "discount"
  | "reverse"
  | "pad"
  | "local"
  | "carry"
  | "combine"
  | "trim"
  | "compare";

export type StepKind =
  | "kl-penalty"
  | "outcome"
  | "pad-batch"
  | "residuals"
  | "discount"
  | "reverse"
  | "pad"
  | "local"
  | "chunk-end"
  | "carry"
  | "combine"
  | "gae-returns"
  | "trim"
  | "compare";

export interface Step {
  kind: StepKind;
  phase: PhaseId;
  /** The chunk the step works on (local, chunk end, carry), else -1. */
  chunk: number;
  /** Local steps: the last position of the chunk computed so far (reversed time), else -1. */
  k: number;
  /** Index into `sections`: what Shift+← and Shift+→ jump between. */
  section: number;
}

export interface Span {
  label: string;
  first: number;
  last: number;
}

export interface Phase extends Span {
  id: PhaseId;
}

export interface PlayerTrace {
  replay: Replay;
  steps: Step[];
  phases: Phase[];
  /** Phases, with the local scan cut into one section per chunk. */
  sections: Span[];
  /** `token`: the local scan advances one token per step; `chunk`: one whole chunk per step. */
  granularity: "token" | "chunk";
  /** The rank of each phase, to tell whether a phase is done at a given step. */
  phaseRank: Record<PhaseId, number>;
}

export const PHASE_LABELS: Record<PhaseId, string> = {
  "token-rewards": "Token rewards",
  "pad-batch": "Pad the batch",
  residuals: "TD residuals",
  discount: "Discount γλ",
  reverse: "Reverse time",
  pad: "Pad to chunks",
  local: "Local scans",
  carry: "Carries",
  combine: "Combine",
  trim: "Trim",
  compare: "Compare with serial",
};

/** Above this many padded tokens, the local scan advances a whole chunk per step. */
export const TOKEN_STEPS_MAX = 256;

/**
 * The run as an ordered list of named steps: for GAE the residuals and γλ first, for REINFORCE++
 * the token rewards and the right padding of the ragged batch; then reverse, pad, every chunk's
 * local scan (token by token at teaching sizes), the carries chunk to chunk, the combined result,
 * the trim (REINFORCE++) and the comparison with the serial reference.
 */
export function buildTrace(replay: Replay): PlayerTrace {
  const { kind, nChunks, chunkSize } = replay;
  const granularity = nChunks * chunkSize <= TOKEN_STEPS_MAX ? "token" : "chunk";
  const steps: Step[] = [];
  const phases: Phase[] = [];
  const sections: Span[] = [];

  const open = (id: PhaseId) => phases.push({ id, label: PHASE_LABELS[id], first: steps.length, last: -1 });
  const section = (label: string) => sections.push({ label, first: steps.length, last: -1 });
  const push = (kind: StepKind, chunk = -1, k = -1) => {
    const phase = phases[phases.length - 1];
    steps.push({ kind, phase: phase.id, chunk, k, section: sections.length - 1 });
    phase.last = steps.length - 1;
    sections[sections.length - 1].last = steps.length - 1;
  };
  const simplePhase = (id: PhaseId, ...kinds: StepKind[]) => {
    open(id);
    section(PHASE_LABELS[id]);
    for (const k of kinds) push(k);
  };

  if (kind === "reinforce_pp") {
    simplePhase("token-rewards", "kl-penalty", "outcome");
    simplePhase("pad-batch", "pad-batch");
  }
  if (kind === "gae") {
    simplePhase("residuals", "residuals");
    simplePhase("discount", "discount");
  }
  simplePhase("reverse", "reverse");
  simplePhase("pad", "pad");

  open("local");
  for (let c = 0; c < nChunks; c++) {
    section(`Local scan · chunk ${c}`);
    const valid = validInChunk(replay, c);
    if (granularity === "token") {
      for (let k = 0; k < valid; k++) push("local", c, k);
      push("chunk-end", c, valid - 1);
    } else {
      push("local", c, valid - 1);
    }
  }

  open("carry");
  section(PHASE_LABELS.carry);
  for (let c = 0; c < nChunks; c++) push("carry", c);

  simplePhase("combine", ...(kind === "gae" ? (["combine", "gae-returns"] as const) : (["combine"] as const)));
  if (kind === "reinforce_pp") simplePhase("trim", "trim");
  simplePhase("compare", "compare");

  const phaseRank = {} as Record<PhaseId, number>;
  (Object.keys(PHASE_LABELS) as PhaseId[]).forEach((id, rank) => {
    phaseRank[id] = rank;
  });
  return { replay, steps, phases, sections, granularity, phaseRank };
}

/** Real tokens in chunk c: C, except the last chunk (in reversed time) when padding was needed. */
export function validInChunk(r: Pick<Replay, "cols" | "chunkSize">, c: number): number {
  return Math.max(0, Math.min(r.chunkSize, r.cols - c * r.chunkSize));
}

/** Where Shift+→ goes: the next section's first step (the last step from the last section). */
export function nextSection(trace: PlayerTrace, cursor: number): number {
  const here = trace.steps[cursor].section;
  const next = trace.sections[here + 1];
  return next ? next.first : trace.steps.length - 1;
}

/** Where Shift+← goes: this section's start, or the previous section's start when already there. */
export function previousSection(trace: PlayerTrace, cursor: number): number {
  const here = trace.steps[cursor].section;
  const start = trace.sections[here].first;
  if (cursor > start) return start;
  return trace.sections[Math.max(0, here - 1)].first;
}

/** The first step that works on chunk c in the local phase (for jumps from the chunk overview). */
export function localStepOfChunk(trace: PlayerTrace, chunk: number): number {
  return Math.max(
    0,
    trace.steps.findIndex((s) => s.phase === "local" && s.chunk === chunk),
  );
}

/** Is phase `id` complete at `step` (the step lies in a later phase)? */
export function phaseDone(trace: PlayerTrace, step: Step, id: PhaseId): boolean {
  return trace.phaseRank[step.phase] > trace.phaseRank[id];
}

/** Has phase `id` started at `step` (the step is in it or after it)? */
export function phaseReached(trace: PlayerTrace, step: Step, id: PhaseId): boolean {
  return trace.phaseRank[step.phase] >= trace.phaseRank[id];
}
