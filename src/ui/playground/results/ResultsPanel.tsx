import { memo, type Ref, useCallback, useMemo, useRef } from "react";
import type { PlaygroundRow } from "../../../io/playgroundState";
import type { ChartHandle } from "../../charts/chartPng";
import { ErrorChart } from "../../charts/ErrorChart";
import { PLOT_LEFT, PLOT_RIGHT } from "../../charts/plotLayout";
import { ReturnsChart } from "../../charts/ReturnsChart";
import { useWidth } from "../../charts/useWidth";
import { ErrorHeatmap, type HeatmapCell, type HeatmapHandle } from "../../heatmap/ErrorHeatmap";
import type { OutputName } from "../compute/outputTables";
import type { PlaygroundResult, RowResult } from "../compute/playgroundRun";
import { OUTPUT_LABELS } from "./labels";
import { maskTable, rowView } from "./rowView";

export interface Hover {
  row: number;
  token: number;
}

export interface ResultsPanelProps {
  result: PlaygroundResult;
  rowResult: RowResult | null;
  rows: PlaygroundRow[];
  selectedRow: number;
  output: OutputName;
  metric: "abs" | "rel" | "ulp";
  scope: "batch" | "row";
  chunkStarts: number[];
  hover: Hover | null;
  onHover(hover: Hover | null): void;
  onSelectRow(row: number): void;
  returnsRef: Ref<ChartHandle>;
  errorRef: Ref<ChartHandle>;
  heatmapRef: Ref<HeatmapHandle>;
}

const CAPITAL = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The selected row's charts and the batch heatmap, on the editor's token axis. */
export const ResultsPanel = memo(function ResultsPanel(props: ResultsPanelProps) {
  const { result, rowResult, rows, selectedRow, output, chunkStarts, hover } = props;
  const boxRef = useRef<HTMLDivElement>(null);
  const width = useWidth(boxRef, 800);
  // Memoised: the charts and the heatmap redo their pooling and downsampling only when these change.
  const view = useMemo(() => rowView(result, rowResult, selectedRow, output), [result, rowResult, selectedRow, output]);
  const masks = useMemo(
    () => (rows.length === result.rows ? maskTable(rows, result.cols) : undefined),
    [rows, result.rows, result.cols],
  );
  const precision = result.ran.precision === "float64" ? "float64" : "float32";
  const chunkedLabel = `chunked ${precision} (${result.ran.backend}${result.ran.precision === "float32-engine" ? `, ${result.ran.strategy}` : ""})`;
  // A short row's charts cover only its tokens: narrowing them keeps token t at the editor's x.
  const plotWidth = Math.max(1, width - PLOT_LEFT - PLOT_RIGHT);
  const chartWidth = view && result.cols > 0 ? PLOT_LEFT + PLOT_RIGHT + (plotWidth * view.length) / result.cols : width;
  const rowMask = useMemo(
    () => masks?.subarray(selectedRow * result.cols, selectedRow * result.cols + (view?.length ?? 0)),
    [masks, selectedRow, result.cols, view],
  );
  const hoverToken = hover && hover.row === selectedRow ? hover.token : null;
  const { onHover } = props;
  const onHoverToken = useCallback(
    (t: number | null) => onHover(t === null ? null : { row: selectedRow, token: t }),
    [onHover, selectedRow],
  );
  const onHoverCell = useCallback(
    (cell: HeatmapCell | null) => onHover(cell ? { row: cell.row, token: cell.token } : null),
    [onHover],
  );
  const empty = useMemo(() => new Float64Array(0), []);

  return (
    <div ref={boxRef} className="results">
      {view && view.length > 0 ? (
        <div className="charts" style={{ width: Math.max(chartWidth, 280) }}>
          <ReturnsChart
            ref={props.returnsRef}
            title={`${CAPITAL(OUTPUT_LABELS[output])}, row ${selectedRow}${view.live ? " (live while drawing)" : ""}`}
            reference={view.reference}
            chunked={view.chunked}
            chunkedLabel={chunkedLabel}
            chunkedPrecision={precision}
            chunkBoundaries={chunkStarts}
            lossMask={rowMask}
            hoverToken={hoverToken}
            onHoverToken={onHoverToken}
            height={200}
          />
          <ErrorChart
            ref={props.errorRef}
            chunkedError={view.chunkedError}
            serialError={view.serialError}
            bound={view.bound}
            chunkBoundaries={chunkStarts}
            chunkedLabel={`${chunkedLabel} − serial float64`}
            hoverToken={hoverToken}
            onHoverToken={onHoverToken}
            height={130}
          />
        </div>
      ) : (
        <p className="muted">Row {selectedRow} has no tokens: give it a length to see its returns.</p>
      )}
      <ErrorHeatmap
        ref={props.heatmapRef}
        rows={result.rows}
        cols={result.cols}
        lengths={result.lengths}
        reference={result.reference[output] ?? empty}
        actual={result.chunked[output] ?? empty}
        lossMask={masks}
        bound={result.bound[output]}
        chunkBoundaries={chunkStarts}
        metric={props.metric}
        precision={precision}
        colourScope={props.scope}
        selectedRow={selectedRow}
        onSelectRow={props.onSelectRow}
        onHoverCell={onHoverCell}
        hoverToken={hover?.token ?? null}
      />
    </div>
  );
});
