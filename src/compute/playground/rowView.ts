import type { FloatArray } from "../../core";
import type { OutputName } from "./outputTables";
import type { PlaygroundResult } from "./playgroundRun";

/** One row of one output, as the charts draw it: valid tokens only. */
export interface RowView {
  length: number;
  reference: Float64Array;
  chunked: FloatArray;
  /** |chunked − float64 serial| per token. */
  chunkedError: Float64Array;
  /** |float32 serial loop − float64 serial| per token. */
  serialError: Float64Array;
  bound: Float64Array;
}

/** The charted row of a whole-batch result; null when the row or output is not in it. */
export function rowView(result: PlaygroundResult | null, row: number, output: OutputName): RowView | null {
  if (!result) return null;
  const offset = row * result.cols;
  const length = result.lengths[row];
  const reference = result.reference[output];
  const chunked = result.chunked[output];
  const serial = result.serial32[output];
  const bound = result.bound[output];
  if (length === undefined || !reference || !chunked || !serial || !bound) return null;
  const ref = reference.subarray(offset, offset + length);
  const act = chunked.subarray(offset, offset + length);
  const ser = serial.subarray(offset, offset + length);
  const chunkedError = new Float64Array(length);
  const serialError = new Float64Array(length);
  for (let t = 0; t < length; t++) {
    chunkedError[t] = Math.abs(act[t] - ref[t]);
    serialError[t] = Math.abs(ser[t] - ref[t]);
  }
  return {
    length,
    reference: ref,
    chunked: act,
    chunkedError,
    serialError,
    bound: bound.subarray(offset, offset + length),
  };
}

const maskTables = new WeakMap<object, { cols: number; table: Uint8Array }>();

/**
 * The loss mask as a padded `[rows, cols]` table (1 where a row has no mask lane; 0 past its
 * length), built once per rows array and width (a γ change reuses it).
 */
export function maskTable(rows: { length: number; lossMask?: ArrayLike<number> }[], cols: number): Uint8Array {
  const cached = maskTables.get(rows);
  if (cached?.cols === cols) return cached.table;
  const out = new Uint8Array(rows.length * cols);
  rows.forEach((row, b) => {
    for (let t = 0; t < row.length && t < cols; t++) out[b * cols + t] = row.lossMask ? row.lossMask[t] : 1;
  });
  maskTables.set(rows, { cols, table: out });
  return out;
}
