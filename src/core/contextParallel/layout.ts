/**
 * Megatron's load-balanced ("zigzag") context-parallel split of one sample, as slime uses it
 * (CONTEXT_PARALLEL.md; slime's `get_logits_and_tokens_offset_with_cp`): the sample of T positions
 * is right-padded to 2n·c and cut into 2n chunks of c = ceil(T / 2n) positions; rank r holds chunk r
 * and chunk 2n − 1 − r. Log-probs and KL are per logit, and logit j predicts token j + 1, so the
 * response's R tokens come from logits [P − 1, T − 1) with P = T − R.
 */

/** A half-open interval [start, end); never empty where it appears (an empty one is `null`). */
export interface CpSpan {
  start: number;
  end: number;
}

/** One of a rank's two chunks and the part of the response it holds. */
export interface CpPiece {
  /** The chunk's index k among the 2n chunks. */
  chunk: number;
  /** Positions [k·c, (k+1)·c) of the padded sample. */
  positions: CpSpan;
  /** Logits of the response inside the chunk, [max(a, P − 1), min(b, T − 1)); null when none. */
  logits: CpSpan | null;
  /** The same as response indices (logit P − 1 + k predicts response token k); null when none. */
  response: CpSpan | null;
  /** Where the piece starts in the rank's local vector. */
  localOffset: number;
}

export interface CpRank {
  rank: number;
  /** Chunk r, then chunk 2n − 1 − r: the local vector is the first piece followed by the second. */
  pieces: [CpPiece, CpPiece];
  /** Response tokens this rank holds (may be 0: the split balances the sequence, not the response). */
  localLength: number;
}

export interface CpLayout {
  totalLength: number;
  responseLength: number;
  promptLength: number;
  cpSize: number;
  /** c = ceil(T / 2n). */
  chunkLength: number;
  /** 2n·c: the sample's length after right padding. */
  paddedLength: number;
  ranks: CpRank[];
}

/** The largest cp_size and total length the layout accepts (the check command's per-row token limit). */
export const MAX_CP_SIZE = 1024;
export const MAX_TOTAL_LENGTH = 2 ** 24;

/** A layout that cannot exist; the message names the value and why. */
export class CpLayoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CpLayoutError";
  }
}

/** Why (T, R, n) is not a layout, or null when it is. */
export function cpLayoutProblem(totalLength: number, responseLength: number, cpSize: number): string | null {
  if (!Number.isSafeInteger(cpSize) || cpSize < 1 || cpSize > MAX_CP_SIZE) {
    return `cp_size must be a whole number from 1 to ${MAX_CP_SIZE}, got ${cpSize}`;
  }
  if (!Number.isSafeInteger(totalLength) || totalLength < 2 || totalLength > MAX_TOTAL_LENGTH) {
    return `total length must be a whole number from 2 to ${MAX_TOTAL_LENGTH}, got ${totalLength}`;
  }
  if (!Number.isSafeInteger(responseLength) || responseLength < 1) {
    return `response length must be a whole number of at least 1, got ${responseLength}`;
  }
  if (responseLength > totalLength - 1) {
    // Response token 0 is predicted by the prompt's last logit: without a prompt token it has none.
    return `response length ${responseLength} leaves no prompt token in a total length of ${totalLength}; it must be at most ${totalLength - 1}`;
  }
  return null;
}

function span(start: number, end: number): CpSpan | null {
  return end > start ? { start, end } : null;
}

/** The layout of one sample of total length T with a response of R tokens over n CP ranks. */
export function cpLayout(totalLength: number, responseLength: number, cpSize: number): CpLayout {
  const problem = cpLayoutProblem(totalLength, responseLength, cpSize);
  if (problem) throw new CpLayoutError(problem);
  const T = totalLength;
  const P = T - responseLength;
  const c = Math.ceil(T / (2 * cpSize));
  const piece = (chunk: number, localOffset: number): CpPiece => {
    const a = chunk * c;
    const b = a + c;
    const logits = span(Math.max(a, P - 1), Math.min(b, T - 1));
    const response = logits ? { start: logits.start - P + 1, end: logits.end - P + 1 } : null;
    return { chunk, positions: { start: a, end: b }, logits, response, localOffset };
  };
  const ranks = Array.from({ length: cpSize }, (_, rank): CpRank => {
    const first = piece(rank, 0);
    const firstLength = spanLength(first.response);
    const second = piece(2 * cpSize - 1 - rank, firstLength);
    return { rank, pieces: [first, second], localLength: firstLength + spanLength(second.response) };
  });
  return {
    totalLength: T,
    responseLength,
    promptLength: P,
    cpSize,
    chunkLength: c,
    paddedLength: 2 * cpSize * c,
    ranks,
  };
}

export function spanLength(s: CpSpan | null): number {
  return s ? s.end - s.start : 0;
}

/** The response indices a rank holds, in its local order (first piece, then second). */
export function responseIndices(rank: CpRank): number[] {
  const out: number[] = [];
  for (const p of rank.pieces) {
    if (p.response) for (let k = p.response.start; k < p.response.end; k++) out.push(k);
  }
  return out;
}

/** "8–11", "3", or "none": a span of response indices as a person reads it. */
export function formatSpan(s: CpSpan | null): string {
  if (!s) return "none";
  return s.end - s.start === 1 ? String(s.start) : `${s.start}–${s.end - 1}`;
}
