import { memo, type Ref, useCallback, useMemo, useRef } from "react";
import { hereSource, type PictureSource, sameAsk } from "../../../compute/heatmap/picture";
import type { CarryRow, CarryRowResult } from "../../../compute/playground/carryRow";
import { nonFiniteLesson } from "../../../compute/playground/nonFiniteReport";
import { OUTPUT_LABELS } from "../../../compute/playground/outputLabels";
import type { OutputName } from "../../../compute/playground/outputTables";
import type { PlaygroundClient } from "../../../compute/playground/playgroundClient";
import type { PlaygroundResult } from "../../../compute/playground/playgroundRun";
import { maskTable, rowView } from "../../../compute/playground/rowView";
import type { DumpComparison, PlaygroundRow } from "../../../io/playgroundState";
import type { CarryParts } from "../../charts/CarryBands";
import type { ChartHandle } from "../../charts/chartPng";
import { chunkStarts } from "../../charts/chunkBoundaries";
import { ErrorChart } from "../../charts/ErrorChart";
import { PLOT_LEFT, PLOT_RIGHT } from "../../charts/plotLayout";
import { ReturnsChart } from "../../charts/ReturnsChart";
import { useWidth } from "../../charts/useWidth";
import { ErrorHeatmap, type HeatmapCell, type HeatmapHandle } from "../../heatmap/ErrorHeatmap";
import { storedLine } from "../DumpBanner";
import { useCarryRow } from "./useCarryRow";
import { useDrawnParts } from "./useDrawnParts";

/** Where the chunks of a result start (none for the per-token strategy, which has no chunks). */
export function chunkStartsOf(result: PlaygroundResult): number[] {
  return result.ran.strategy === "per-token" ? [] : chunkStarts(result.cols, result.ran.chunkSize);
}

export interface Hover {
  row: number;
  token: number;
}

export interface ResultsPanelProps {
  result: PlaygroundResult;
  rows: PlaygroundRow[];
  selectedRow: number;
  output: OutputName;
  metric: "abs" | "rel" | "ulp";
  scope: "batch" | "row";
  chunkStarts: number[];
  hover: Hover | null;
  onHover(hover: Hover | null): void;
  onSelectRow(row: number): void;
  /** Says the result is of an earlier batch or settings (the newest run failed or was cancelled). */
  behindNote?: string | null;
  /** Told each result once every part of the panel has drawn it. */
  onDrawn(result: PlaygroundResult): void;
  /** Beyond teaching size (previewable): the carries of the row in focus are split by the worker. */
  large: boolean;
  returnsRef: Ref<ChartHandle>;
  errorRef: Ref<ChartHandle>;
  heatmapRef: Ref<HeatmapHandle>;
  /** The playground worker, which pools the heatmap of the results it computed and splits carries (stable). */
  worker: Pick<PlaygroundClient, "picture" | "carryRow"> | null;
  /** Row 0 is a sample of a slime dump: its stored output is drawn in the returns chart. */
  dump?: DumpComparison;
  /** The returns chart splits the row in focus into local sums and carries (the state's showCarries). */
  showCarries?: boolean;
  /** Turns the carries on or off (off is the field's absence, as links write it); stable, as the panel is memoised. */
  onCarries?(view: { showCarries: true | undefined }): void;
}

const CAPITAL = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The selected row's charts and the batch heatmap, on the editor's token axis. */
export const ResultsPanel = memo(function ResultsPanel(props: ResultsPanelProps) {
  const { result, rows, selectedRow, output, chunkStarts, hover } = props;
  const boxRef = useRef<HTMLDivElement>(null);
  // The charts wait for the browser's layout to report the panel's width: drawn at a guess first,
  // they were drawn again, at their own width, in the next frame.
  const measured = useWidth(boxRef);
  const width = measured ?? 800;
  // Memoised: the charts and the heatmap redo their pooling and downsampling only when these change.
  const view = useMemo(() => rowView(result, selectedRow, output), [result, selectedRow, output]);
  // The charts draw a new result in the render that brings it; a big result's heatmap picture comes
  // pooled from the playground worker, so a new 16 × 8192 result is never one long main-thread task.
  const heatmapStarts = useMemo(() => chunkStartsOf(result), [result]);
  const drawn = useDrawnParts(result, props.onDrawn, {
    returns: view && view.length > 0 ? view.reference : null,
    error: view && view.length > 0 ? view.chunkedError : null,
    // By its chunked values: a chunk-size step keeps the reference (the serial scan is reused).
    heatmap: result.reference[output] && result.chunked[output] ? result.chunked[output] : null,
  });
  const onHeatmapDrawn = useCallback(
    (_reference: ArrayLike<number>, actual: ArrayLike<number>) => drawn.heatmap(actual),
    [drawn],
  );
  const masks = useMemo(
    () => (rows.length === result.rows ? maskTable(rows, result.cols) : undefined),
    [rows, result.rows, result.cols],
  );
  const heatmapSource = useMemo(
    () => pictureSource(result, output, masks, props.worker),
    [result, output, masks, props.worker],
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
  const stored = useMemo(
    () => storedLine(props.dump, selectedRow, view?.length, output),
    [props.dump, selectedRow, view?.length, output],
  );
  const lesson = useMemo(
    () =>
      rows.length === result.rows
        ? nonFiniteLesson(
            rows,
            result.kind,
            result.cols,
            result.ran.strategy === "per-token" ? null : result.ran.chunkSize,
            selectedRow,
          )
        : null,
    [rows, result, selectedRow],
  );

  // Only the row in focus, and only while asked for: O(T·C/2) float64 multiply-adds, by the worker when large.
  const hasTokens = view !== null && view.length > 0;
  const splitter = props.large ? props.worker : null;
  const carryRow = useCarryRow(props.showCarries === true && hasTokens, result, rows, selectedRow, output, splitter);
  const carries = useMemo<CarryParts | null>(() => (carryRow?.ok ? carryPartsOf(carryRow.row) : null), [carryRow]);

  return (
    <div ref={boxRef} className="results">
      {props.behindNote ? (
        <p className="small alert" role="status" data-testid="results-behind">
          {props.behindNote}
        </p>
      ) : null}
      {measured === null ? null : view && view.length > 0 ? (
        <div className="charts" style={{ width: Math.max(chartWidth, 280) }}>
          {props.onCarries ? (
            <CarriesToggle
              on={props.showCarries === true}
              onChange={(on) => props.onCarries?.({ showCarries: on || undefined })}
              note={
                carryRow
                  ? carriesNote(carryRow, selectedRow, chunkedLabel)
                  : `Splitting row ${selectedRow} into local sums and carries…`
              }
            />
          ) : null}
          <ReturnsChart
            ref={props.returnsRef}
            title={`${CAPITAL(OUTPUT_LABELS[output])}, row ${selectedRow}`}
            reference={view.reference}
            chunked={view.chunked}
            chunkedLabel={chunkedLabel}
            chunkedPrecision={precision}
            stored={stored}
            chunkBoundaries={chunkStarts}
            lossMask={rowMask}
            hoverToken={hoverToken}
            onHoverToken={onHoverToken}
            height={200}
            onDrawn={drawn.returns}
            carries={carries}
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
            onDrawn={drawn.error}
          />
        </div>
      ) : (
        <p className="muted">Row {selectedRow} has no tokens: give it a length to see its returns.</p>
      )}
      {heatmapSource && result.reference[output] && result.chunked[output] ? (
        <ErrorHeatmap
          source={heatmapSource}
          ref={props.heatmapRef}
          rows={result.rows}
          cols={result.cols}
          lengths={result.lengths}
          reference={result.reference[output] ?? empty}
          actual={result.chunked[output] ?? empty}
          lossMask={masks}
          bound={result.bound[output]}
          chunkBoundaries={heatmapStarts}
          metric={props.metric}
          precision={result.ran.precision === "float64" ? "float64" : "float32"}
          colourScope={props.scope}
          selectedRow={selectedRow}
          onSelectRow={props.onSelectRow}
          onHoverCell={onHoverCell}
          hoverToken={hover?.token ?? null}
          onDrawn={onHeatmapDrawn}
        />
      ) : null}
      {lesson ? (
        <p className="non-finite-lesson" data-testid="non-finite-lesson">
          {lesson}
        </p>
      ) : null}
    </div>
  );
});

/** Batches up to this many cells are pooled on the page, in the render that brings them (a frame's work). */
export const HERE_CELLS = 2 ** 13;

/**
 * Where the heatmap's picture of a result is pooled: by the playground worker that computed it and
 * keeps its tables, or here for a teaching-size batch (its picture is then drawn in the frame of
 * the edit, with the result the page computed in that frame itself).
 */
function pictureSource(
  result: PlaygroundResult,
  output: OutputName,
  lossMask: Uint8Array | undefined,
  client: Pick<PlaygroundClient, "picture"> | null,
): PictureSource | null {
  const reference = result.reference[output];
  const actual = result.chunked[output];
  if (!reference || !actual) return null;
  const id = result.pictures;
  if (client && id !== undefined && result.rows * result.cols > HERE_CELLS) {
    const sent = result.sentPicture;
    return {
      at: "worker",
      picture: (ask) => client.picture(id, output, ask, result),
      ready: (ask) => (sent && sent.output === output && sameAsk(sent.ask, ask) ? sent.picture : null),
    };
  }
  const { rows, cols, lengths } = result;
  return hereSource({ rows, cols, lengths, reference, actual, bound: result.bound[output], lossMask });
}

/** What the returns chart draws of a split row: its chunks are the batch's, over its padded length. */
function carryPartsOf(row: CarryRow): CarryParts {
  return { ...row, chunkStarts: chunkStarts(row.paddedLength, row.chunkSize) };
}

/** The returns chart's "Show carries" switch and, while it is on, what the bands mean and who computed them. */
function CarriesToggle(props: { on: boolean; onChange(on: boolean): void; note: string | null }) {
  return (
    <div className="carries-toggle">
      <label>
        <input
          type="checkbox"
          data-testid="returns-carries"
          checked={props.on}
          onChange={(e) => props.onChange(e.currentTarget.checked)}
        />{" "}
        Show carries
      </label>
      {props.on && props.note ? (
        <p className="small muted" data-testid="returns-carries-note">
          {props.note}
        </p>
      ) : null}
    </div>
  );
}

/** The note under the switch: the bands' meaning, and that core computed them in float64 for this row alone. */
export function carriesNote(split: CarryRowResult, row: number, chunkedLabel: string): string {
  if (!split.ok) return `No carries to show: ${split.why}`;
  const { scanned, discountName, chunkSize, discount } = split.row;
  return (
    `Row ${row}: orange, each chunk's own discounted sum of the ${scanned}; blue, the part carried in from ` +
    `later chunks, ${discountName}^(k+1)·s_c. Split by core's chunked scan in float64 for this row alone ` +
    `(C = ${chunkSize}, ${discountName} = ${discount}): local + carried = total exactly. ` +
    `The dashed line is the run's ${chunkedLabel}.`
  );
}
