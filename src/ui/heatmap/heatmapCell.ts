/** What the heatmap reports for one (row, token) under the pointer or the keyboard cursor. */
export interface HeatmapCell {
  /** Batch row. */
  row: number;
  /** Token index in original time (0 = first token of the row). */
  token: number;
  /** Chunk index the token falls in, counted from the end of the padded sequence (chunk 0 holds the last tokens). */
  chunk: number;
  /** Float64 serial reference value. */
  serial: number;
  /** Chunked result value. */
  chunked: number;
  /** |chunked − serial|. */
  abs: number;
  /** |chunked − serial| / max(|serial|, floor): see errorMetrics.relError. */
  rel: number;
  /** Distance in units in the last place of the heatmap's precision (exact, from the bit patterns). */
  ulp: number;
  /** The loss mask is 0 here (the token does not count in the loss). */
  masked: boolean;
  /** Beyond the row's length: padding of the `[B, max_len]` batch, not data. */
  padding: boolean;
  /** The error is over the per-element bound given to the heatmap. */
  overBound: boolean;
  /** The cell's bound is NaN or ±Inf: it checks nothing, so the cell is neither over nor within it. */
  unchecked: boolean;
}
