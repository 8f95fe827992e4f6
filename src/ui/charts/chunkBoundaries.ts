/**
 * Chunk boundaries in original time. slime scans the reversed sequence, so chunk 0 holds the last C
 * tokens and the short chunk (if T is not a multiple of C) holds the first T mod C tokens: chunks
 * start at t = T − c·C (ALGORITHM.md §b.4). For a right-padded batch, T is the padded length.
 */

/** Token indices where a chunk starts, ascending; 0 is always the first. */
export function chunkStarts(length: number, chunkSize: number): number[] {
  if (length <= 0) return [];
  if (!(chunkSize >= 1)) return [0];
  const starts: number[] = [];
  for (let t = length - chunkSize; t > 0; t -= chunkSize) starts.push(t);
  starts.push(0);
  return starts.reverse();
}

/** Chunk index of token t (0 = the chunk holding the last tokens), given the ascending chunk starts. */
export function chunkOfToken(starts: readonly number[], t: number): number {
  // Number of starts above t: binary search for the first start > t.
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid] > t) hi = mid;
    else lo = mid + 1;
  }
  return starts.length - lo;
}

/** Chunk lines closer than this many pixels are drawn fainter. */
export const CROWDED_PX = 24;

/**
 * The boundaries worth a line on a plot `widthPx` wide showing `length` tokens: every start but 0,
 * or none when lines would fall closer than `minGapPx` (the caller then says the chunks are too
 * narrow to draw).
 */
export function drawableBoundaries(
  starts: readonly number[],
  length: number,
  widthPx: number,
  minGapPx = 4,
): { lines: number[]; tooDense: boolean; crowded: boolean } {
  const lines = starts.filter((t) => t > 0 && t < length);
  if (lines.length === 0) return { lines, tooDense: false, crowded: false };
  let narrowest = length;
  let previous = 0;
  for (const t of lines) {
    narrowest = Math.min(narrowest, t - previous);
    previous = t;
  }
  // The short chunk at the start may be a single token; judge density by the full chunks.
  const full = lines.length > 1 ? lines[1] - lines[0] : narrowest;
  const gapPx = (full / length) * widthPx;
  if (gapPx < minGapPx) return { lines: [], tooDense: true, crowded: true };
  // Lines closer than this would out-shout the data: the charts draw them fainter.
  return { lines, tooDense: false, crowded: gapPx < CROWDED_PX };
}
