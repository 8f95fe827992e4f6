import type { HeatmapCell } from "./heatmapCell";

export type { HeatmapCell };

/** Canvas heatmap of |chunked − serial| over the padded batch `[rows, cols]`. */
export interface ErrorHeatmapProps {
  /** Batch rows (B). */
  rows: number;
  /** Padded length (max_len). */
  cols: number;
  /** Valid tokens per row; cells beyond are padding and drawn grey. */
  lengths: ArrayLike<number>;
  /** Float64 serial reference, row-major rows × cols. */
  reference: ArrayLike<number>;
  /** Chunked result, row-major rows × cols. */
  actual: ArrayLike<number>;
  /** Loss mask, row-major (0 = masked, hatched). */
  lossMask?: ArrayLike<number>;
  /** Per-element allowed absolute error; cells over it get an outline. */
  bound?: ArrayLike<number>;
  /** Token indices where a chunk starts, shared by all rows (aligned to the padded length). */
  chunkBoundaries: number[];
  /** Error measure coloured: absolute, relative or units in the last place. */
  metric: "abs" | "rel" | "ulp";
  /** Precision whose ulp the "ulp" metric counts. */
  precision: "float32" | "float64";
  /** Row drawn as selected. */
  selectedRow: number;
  /** Called when a row is clicked or chosen with Enter. */
  onSelectRow(row: number): void;
  /** Called with the cell under the pointer or the keyboard cursor, null when it leaves. */
  onHoverCell?(cell: HeatmapCell | null): void;
}

export function ErrorHeatmap(props: ErrorHeatmapProps) {
  return (
    <canvas
      className="error-heatmap"
      width={props.cols}
      height={props.rows}
      aria-label={`Error heatmap, ${props.rows} rows × ${props.cols} tokens`}
    />
  );
}
