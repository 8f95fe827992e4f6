import type { BenchRow } from "./benchResult";

/** The median; the mean of the middle two for an even count; NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * How many runs make one timing sample: enough that a sample lasts `minSampleMs`, since browsers
 * coarsen performance.now() (to 100 µs without cross-origin isolation) and a 5 µs loop would
 * otherwise read as 0 or 0.1 ms.
 */
export function loopsPerSample(oneRunMs: number, minSampleMs = 5, maxLoops = 10_000): number {
  if (!(oneRunMs > 0)) return maxLoops;
  return Math.max(1, Math.min(maxLoops, Math.ceil(minSampleMs / oneRunMs)));
}

/** A timed row's median, when it has one and every run was correct; otherwise undefined. */
export function validMedian(row: BenchRow | undefined): number | undefined {
  return row?.status === "ok" ? row.medianMs : undefined;
}

/**
 * A row's speedup over per-token on the same backend, size and chunk size: per-token's median over
 * its own. Undefined when either side has no valid time (skipped, failed, wrong) or for per-token itself.
 */
export function speedupOverPerToken(row: BenchRow, rows: readonly BenchRow[]): number | undefined {
  if (row.strategy === "per-token" || row.strategy === "js-loop") return undefined;
  const base = rows.find(
    (r) =>
      r.strategy === "per-token" &&
      r.backend === row.backend &&
      r.size.rows === row.size.rows &&
      r.size.cols === row.size.cols &&
      r.sweep === row.sweep,
  );
  const baseMs = validMedian(base);
  const ms = validMedian(row);
  if (baseMs === undefined || ms === undefined || ms <= 0) return undefined;
  return baseMs / ms;
}
