import type { FloatArray } from "../../../core";
import type { OutputName } from "../compute/outputTables";
import type { PlaygroundResult, RowResult } from "../compute/playgroundRun";

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
  /** True when the values come from the one-row recompute of a stroke still in progress. */
  live: boolean;
}

/**
 * The charted row: from the stroke's one-row recompute when it is for this row, else from the last
 * whole-batch result. Null when the row or output does not exist in what was computed.
 */
export function rowView(
  result: PlaygroundResult | null,
  rowResult: RowResult | null,
  row: number,
  output: OutputName,
): RowView | null {
  const source = rowResult && rowResult.row === row ? rowResult : result;
  if (!source) return null;
  const live = source === rowResult;
  const offset = live ? 0 : row * source.cols;
  const length = live ? (rowResult as RowResult).length : (result as PlaygroundResult).lengths[row];
  const reference = source.reference[output];
  const chunked = source.chunked[output];
  const serial = source.serial32[output];
  const bound = source.bound[output];
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
    live,
  };
}

/** The loss mask as a padded `[rows, cols]` table (1 where a row has no mask lane; 0 past its length). */
export function maskTable(rows: { length: number; lossMask?: ArrayLike<number> }[], cols: number): Uint8Array {
  const out = new Uint8Array(rows.length * cols);
  rows.forEach((row, b) => {
    for (let t = 0; t < row.length && t < cols; t++) out[b * cols + t] = row.lossMask ? row.lossMask[t] : 1;
  });
  return out;
}
