import type { ReplayResult } from "../../core";
import type { UnderstoodDump } from "../../io/slimeDump";

/** One stored field of every sample beside its float64 reference and bound, padded to `[B, max length]`. */
export interface RunGrid {
  field: "advantages" | "returns";
  rows: number;
  cols: number;
  lengths: Int32Array;
  /** What slime stored (float32 widened). */
  actual: Float64Array;
  reference: Float64Array;
  bound: Float64Array;
  lossMask: Uint8Array;
}

/** The heatmap's tables for one field; null where nothing was replayed. */
export function runGrid(dump: UnderstoodDump, replay: ReplayResult, field: RunGrid["field"]): RunGrid | null {
  if (!replay.ok) return null;
  const rows = dump.samples.length;
  const cols = dump.samples.reduce((max, s) => Math.max(max, s.responseLength), 0);
  const grid: RunGrid = {
    field,
    rows,
    cols,
    lengths: Int32Array.from(dump.samples, (s) => s.responseLength),
    actual: new Float64Array(rows * cols),
    reference: new Float64Array(rows * cols),
    bound: new Float64Array(rows * cols),
    lossMask: new Uint8Array(rows * cols),
  };
  dump.samples.forEach((s, b) => {
    const stored = s[field];
    const replayed = replay.samples[b];
    if (stored) grid.actual.set(stored, b * cols);
    grid.reference.set(replayed.reference[field], b * cols);
    grid.bound.set(replayed.bounds[field], b * cols);
    grid.lossMask.set(s.lossMask, b * cols);
  });
  return grid;
}

/** The arrays to transfer with a grid. */
export function gridBuffers(grid: RunGrid | null): ArrayBuffer[] {
  if (!grid) return [];
  return [grid.lengths, grid.actual, grid.reference, grid.bound, grid.lossMask].map((a) => a.buffer as ArrayBuffer);
}
