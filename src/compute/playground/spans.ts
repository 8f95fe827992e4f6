/**
 * Runs of flagged tokens (masked, non-finite) as [start, end) spans for shading. Runs closer than
 * `mergeGap` tokens are joined, so a scattered mask over 8192 tokens becomes a few areas a chart can
 * draw rather than thousands.
 */
export function spansWhere(
  flagged: (t: number) => boolean,
  length: number,
  mergeGap = 1,
): Array<[start: number, end: number]> {
  const spans: Array<[number, number]> = [];
  let t = 0;
  while (t < length) {
    if (!flagged(t)) {
      t++;
      continue;
    }
    const start = t;
    while (t < length && flagged(t)) t++;
    const last = spans.at(-1);
    if (last && start - last[1] < mergeGap) last[1] = t;
    else spans.push([start, t]);
  }
  return spans;
}

/** Spans of masked tokens (loss mask 0). */
export function maskedSpans(
  lossMask: ArrayLike<number> | undefined,
  length: number,
  mergeGap = 1,
): Array<[number, number]> {
  if (!lossMask) return [];
  return spansWhere((t) => lossMask[t] === 0, Math.min(length, lossMask.length), mergeGap);
}

/** Tokens per two pixels: spans closer than that merge (they could not be told apart on screen). */
export function mergeGapFor(length: number, widthPx: number): number {
  return Math.max(1, Math.ceil((2 * length) / Math.max(1, widthPx)));
}
