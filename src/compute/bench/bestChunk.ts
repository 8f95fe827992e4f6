import type { BenchRow } from "./benchResult";
import { validMedian } from "./benchStats";

/**
 * The best chunk size of a sweep for one backend and strategy: the fastest of the points whose
 * every run was within its error bound (a fast wrong answer is not a choice); on a tie, the one
 * with the smaller error. Undefined when no point is valid.
 */
export function bestChunk(points: readonly BenchRow[]): BenchRow | undefined {
  let best: BenchRow | undefined;
  for (const p of points) {
    const ms = validMedian(p);
    if (ms === undefined) continue;
    const bestMs = best?.medianMs ?? Number.POSITIVE_INFINITY;
    if (ms < bestMs || (ms === bestMs && (p.maxAbsError ?? Infinity) < (best?.maxAbsError ?? Infinity))) best = p;
  }
  return best;
}

/** The sweep's points grouped by backend and strategy, in the order they first appear, sorted by C. */
export function sweepGroups(rows: readonly BenchRow[]): { key: string; points: BenchRow[]; best?: BenchRow }[] {
  const groups = new Map<string, BenchRow[]>();
  for (const r of rows) {
    if (!r.sweep) continue;
    const key = `${r.backend} ${r.strategy}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups].map(([key, points]) => {
    const sorted = [...points].sort((a, b) => a.chunkSize - b.chunkSize);
    return { key, points: sorted, best: bestChunk(sorted) };
  });
}
