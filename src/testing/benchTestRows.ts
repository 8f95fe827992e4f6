import type { BenchStrategy } from "../compute/bench/benchPlan";
import type { BenchRow } from "../compute/bench/benchResult";

/** A timed row for the tests of the tables and the choices made from rows. */
export function row(
  backend: string,
  strategy: BenchStrategy,
  cols: number,
  medianMs: number | undefined,
  extra: Partial<BenchRow> = {},
): BenchRow {
  return {
    backend: backend as BenchRow["backend"],
    strategy,
    size: { rows: cols >= 4096 ? 8 : 1, cols },
    chunkSize: 128,
    sweep: false,
    status: medianMs === undefined ? "skipped" : "ok",
    timesMs: medianMs === undefined ? [] : [medianMs],
    loops: 1,
    checkedRuns: medianMs === undefined ? 0 : 7,
    maxAbsError: medianMs === undefined ? undefined : 1e-6,
    ...(medianMs === undefined ? {} : { medianMs }),
    ...extra,
  };
}
