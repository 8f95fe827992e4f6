/**
 * The layouts in which batched scans (the engine's) compute the conventions that treat mask-0
 * tokens specially, shared by the engine and the error bounds that must follow its rounding.
 */

/** A run of tokens `[start, start + length)` of one sequence. */
export interface Segment {
  row: number;
  start: number;
  length: number;
}

/**
 * verl's REINFORCE++ (`G_t = r_t + γ·m_{t+1}·G_{t+1}`) cut into independent plain scans: the
 * carry into token t − 1 is cut when m_t = 0, so a segment starts at token 0 and at every mask-0
 * token, and runs up to the next mask-0 token.
 */
export function cutSegments(masks: ArrayLike<number>[]): Segment[] {
  const segments: Segment[] = [];
  masks.forEach((mask, row) => {
    let start = 0;
    for (let t = 1; t <= mask.length; t++) {
      if (t === mask.length || mask[t] === 0) {
        segments.push({ row, start, length: t - start });
        start = t;
      }
    }
  });
  return segments;
}

/**
 * The width a segment is scanned in: the next power of two. Segments of one width form one
 * padded batch, so the padding is less than the tokens themselves (at most ⌈log₂ T⌉ + 1 batches),
 * where one batch of every segment padded to the longest could be segments × longest values.
 * Each segment is left-padded: its last token stays at the end of the row, where the reversed-time
 * chunks start, so its chunks (and its float32 results) are those of the segment scanned alone.
 */
export function segmentWidth(length: number): number {
  let width = 1;
  while (width < length) width *= 2;
  return width;
}

/** Segments grouped by width, widths ascending; each group keeps the order of `segments`. */
export function segmentsByWidth(segments: Segment[]): { width: number; segments: Segment[] }[] {
  const groups = new Map<number, Segment[]>();
  for (const segment of segments) {
    const width = segmentWidth(segment.length);
    const group = groups.get(width);
    if (group) group.push(segment);
    else groups.set(width, [segment]);
  }
  return [...groups.entries()].sort(([a], [b]) => a - b).map(([width, group]) => ({ width, segments: group }));
}

/**
 * verl's GAE skips mask-0 tokens: the same as plain GAE over each sequence's mask-1 tokens laid
 * side by side. Per sequence, the positions of its mask-1 tokens in order.
 */
export function unmaskedPositions(mask: ArrayLike<number>): number[] {
  const positions: number[] = [];
  for (let t = 0; t < mask.length; t++) if (mask[t] === 1) positions.push(t);
  return positions;
}

/**
 * For every token of a sequence, the index among its mask-1 tokens of the first one at or after
 * it (a mask-0 token shows that token's advantage), or −1 when none follows.
 */
export function nextUnmaskedIndex(mask: ArrayLike<number>): Int32Array {
  const out = new Int32Array(mask.length);
  let count = 0;
  for (let t = 0; t < mask.length; t++) if (mask[t] === 1) count++;
  let next = -1;
  for (let t = mask.length - 1; t >= 0; t--) {
    if (mask[t] === 1) next = --count;
    out[t] = next;
  }
  return out;
}
