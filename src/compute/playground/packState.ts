import type { PlaygroundRow, PlaygroundState } from "../../io/playgroundState";

/**
 * A state as it crosses to a worker: inline lanes as typed arrays, whose buffers are transferred.
 * Structured-cloning 16 × 8192 JavaScript numbers one by one took over half a second on the main
 * thread; copying them into typed arrays takes a few ms.
 */
export interface PackedRow {
  length: number;
  rewards?: Float32Array;
  values?: Float32Array;
  kl?: Float32Array;
  lossMask?: Uint8Array;
  outcome?: number;
}

export type PackedState = Omit<PlaygroundState, "data"> & {
  data: Exclude<PlaygroundState["data"], { source: "inline" }> | { source: "inline"; rows: PackedRow[] };
};

const FLOAT_LANES = ["rewards", "values", "kl"] as const;

/** The packed state and the buffers to transfer with it. Lanes are float32 values already (io's rule). */
export function packState(state: PlaygroundState): { packed: PackedState; buffers: ArrayBuffer[] } {
  if (state.data.source !== "inline") return { packed: state as PackedState, buffers: [] };
  const buffers: ArrayBuffer[] = [];
  const rows = state.data.rows.map((row): PackedRow => {
    const packed: PackedRow = { length: row.length };
    for (const lane of FLOAT_LANES) {
      const values = row[lane];
      if (values) {
        // The constructor, not Float32Array.from: the same values, without the iterator protocol (~17 ms of a stroke's release).
        packed[lane] = new Float32Array(values);
        buffers.push(packed[lane].buffer as ArrayBuffer);
      }
    }
    if (row.lossMask) {
      packed.lossMask = new Uint8Array(row.lossMask);
      buffers.push(packed.lossMask.buffer as ArrayBuffer);
    }
    if (row.outcome !== undefined) packed.outcome = row.outcome;
    return packed;
  });
  return { packed: { ...state, data: { source: "inline", rows } }, buffers };
}

/** The state back with plain number lanes (in the worker). */
export function unpackState(packed: PackedState): PlaygroundState {
  if (packed.data.source !== "inline") return packed as PlaygroundState;
  const rows = packed.data.rows.map((row): PlaygroundRow => {
    const out: PlaygroundRow = { length: row.length };
    for (const lane of FLOAT_LANES) {
      const values = row[lane];
      if (values) out[lane] = Array.from(values);
    }
    if (row.lossMask) out.lossMask = Array.from(row.lossMask, (m) => (m === 0 ? 0 : 1));
    if (row.outcome !== undefined) out.outcome = row.outcome;
    return out;
  });
  return { ...packed, data: { source: "inline", rows } };
}
