import type { RegionId } from "./frame";
import type { PhaseId } from "./trace";

/** A note is plain text with some terms tied to the part of the stage they name (lit up on hover). */
export type NoteSegment = string | { term: string; region: RegionId };

const term = (text: string, region: RegionId): NoteSegment => ({ term: text, region });

/** What each phase does, in two or three sentences, for the narrative column. */
export const PHASE_NOTES: Record<PhaseId, NoteSegment[]> = {
  "token-rewards": [
    "REINFORCE++ turns each sequence into ",
    term("token rewards", "input-lane"),
    ": a KL penalty −β·kl on every unmasked token, and the outcome reward on the last unmasked one. Masked tokens (tool output) get no reward, but returns still flow through them.",
  ],
  "pad-batch": [
    "The sequences have different lengths. slime right-pads them with zeros into one [B, max L] batch and scans it at once; the zeros come after each sequence's end, so they add nothing to its returns. The ",
    term("chunk boundaries", "input-lane"),
    " follow the padded length.",
  ],
  residuals: [
    "GAE scans the ",
    term("TD residuals", "input-lane"),
    " δ_t = r_t + γ·V_(t+1) − V_t, one per token, computed in float32 before the scan.",
  ],
  discount: [
    "The advantages are the discounted sums of δ with discount γλ: the same scan as for returns, with another discount.",
  ],
  reverse: [
    "The return at t depends on everything after t. Reversing the row turns that backward recursion into a forward scan: the ",
    term("serial loop", "serial-panel"),
    " and the chunked scan both start at the last token.",
  ],
  pad: [
    "The reversed row is cut into ",
    term("chunks", "input-lane"),
    " of C tokens; zeros fill the last one. In original time the short chunk is at the start of the sequence, and its padding sits before t = 0.",
  ],
  local: [
    "Each chunk is scanned on its own, from zero: each ",
    term("local sum", "local-lane"),
    " is one row of the ",
    term("Toeplitz matrix of discount powers", "matrix"),
    " times the chunk's values. All chunks are independent, so one matrix product does them all. The ",
    term("serial loop", "serial-lane"),
    " steps beside it, token for token.",
  ],
  carry: [
    "Now the chunks are chained, one per step: the ",
    term("carry", "carry-lane"),
    " s_c into chunk c is the final value at the end of chunk c−1. Position k adds s_c·d^(k+1) (d the discount: γ, or γλ for GAE), which turns the local sums into the ",
    term("final values", "result-lane"),
    ". This is the only serial part: one step per chunk.",
  ],
  combine: [
    "Un-pad and reverse back: the ",
    term("result", "result-lane"),
    " in original time, as the engine returned it. Hover or focus any value for its formula.",
  ],
  trim: ["Each row is cut back to its own length; the padded positions' returns (exactly 0) are dropped."],
  compare: [
    "Every cell against the float64 ",
    term("serial reference", "serial-lane"),
    ": the ",
    term("error lane", "error-lane"),
    " colours |error| by decade (grey: exactly 0) and marks with ✕ any cell over its own error bound.",
  ],
};
