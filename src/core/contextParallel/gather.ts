import { type FloatArray, roundingOf, zerosLike } from "../batch";
import type { CpLayout } from "./layout";

/**
 * slime's `all_gather_with_cp`: each rank writes its pieces at their response offsets into a zero
 * vector of length R, and the vectors are summed over the CP group in rank order (an all-reduce).
 * The pieces never overlap, so each element is its one value plus zeros; the sum is still done as
 * the all-reduce does it, so a −0 comes out as +0 exactly as it would there.
 */
export function gatherPieces<A extends FloatArray>(layout: CpLayout, locals: A[]): A {
  checkLocals(layout, locals);
  const like = locals[0];
  const round = roundingOf(like);
  const full = zerosLike(like, layout.responseLength);
  layout.ranks.forEach((_, r) => {
    const contribution = zeroFilledPieces(layout, r, locals[r]);
    for (let i = 0; i < full.length; i++) full[i] = round(full[i] + contribution[i]);
  });
  return full;
}

/** slime gathers only when the sample is split (cp_size > 1); at cp_size 1 rank 0's vector is the whole response. */
export function gatherIfSplit<A extends FloatArray>(layout: CpLayout, locals: A[]): A {
  return layout.cpSize === 1 ? locals[0] : gatherPieces(layout, locals);
}

/** What rank r puts into the all-reduce: its pieces at their response offsets, zeros elsewhere. */
export function zeroFilledPieces<A extends FloatArray>(layout: CpLayout, r: number, local: A): A {
  const out = zerosLike(local, layout.responseLength);
  for (const piece of layout.ranks[r].pieces) {
    if (!piece.response) continue;
    const { start, end } = piece.response;
    out.set(local.subarray(piece.localOffset, piece.localOffset + end - start), start);
  }
  return out;
}

/** slime's `slice_log_prob_with_cp`: each rank keeps the values at its own response indices, in local order. */
export function sliceBack<A extends FloatArray>(layout: CpLayout, full: A): A[] {
  if (full.length !== layout.responseLength) {
    throw new RangeError(`expected ${layout.responseLength} values (the response), got ${full.length}`);
  }
  return layout.ranks.map((rank) => {
    const local = zerosLike(full, rank.localLength);
    for (const piece of rank.pieces) {
      if (piece.response) local.set(full.subarray(piece.response.start, piece.response.end), piece.localOffset);
    }
    return local;
  });
}

/** The ranks' local vectors put back at their response indices (a copy, no arithmetic): for comparisons. */
export function reassemble<A extends FloatArray>(layout: CpLayout, locals: A[]): A {
  checkLocals(layout, locals);
  const full = zerosLike(locals[0], layout.responseLength);
  layout.ranks.forEach((rank, r) => {
    for (const piece of rank.pieces) {
      if (!piece.response) continue;
      const length = piece.response.end - piece.response.start;
      full.set(locals[r].subarray(piece.localOffset, piece.localOffset + length), piece.response.start);
    }
  });
  return full;
}

function checkLocals(layout: CpLayout, locals: FloatArray[]): void {
  if (locals.length !== layout.cpSize) {
    throw new RangeError(`expected one local vector per rank (${layout.cpSize}), got ${locals.length}`);
  }
  layout.ranks.forEach((rank, r) => {
    if (locals[r].length !== rank.localLength) {
      throw new RangeError(`rank ${r} holds ${rank.localLength} response tokens, got ${locals[r].length} values`);
    }
  });
}

/** Whether two arrays hold the same bits (so −0 differs from +0 and equal NaNs are equal). */
export function sameBits(a: FloatArray, b: FloatArray): boolean {
  if (a.length !== b.length || a.constructor !== b.constructor) return false;
  const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}
