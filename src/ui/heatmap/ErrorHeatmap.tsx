import {
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
  type Ref,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import type { PictureSource } from "../../compute/heatmap/picture";
import { cellLoss, cellLossText, SCAN_SIDES, type SideNames } from "../../compute/playground/cellErrors";
import { formatShort, formatValue } from "../../io/formatNumber";
import { useWidth as useMeasuredWidth } from "../charts/useWidth";
import { HeatmapLegend } from "./HeatmapLegend";
import type { HeatmapCell } from "./heatmapCell";
import { binAt, binOfCell, cellOfBin, heatmapLayout, moveCursor } from "./heatmapGeometry";
import { type ColourScope, type HeatmapData, heatmapCell, heatmapCellOf, heatmapModel } from "./heatmapModel";
import { heatmapPng } from "./heatmapPng";
import { drawHeatmapBase, drawHeatmapOverlay, type HeatmapPicture } from "./heatmapRender";
import { sameData, usePicture } from "./usePicture";
import "./heatmap.css";

export type { HeatmapCell };

/** What the heatmap offers its page. */
export interface HeatmapHandle {
  /** The heatmap with its title and legend as a PNG, at the screen's device resolution. */
  toPng(): Promise<Blob>;
  /** Puts the keyboard cursor on a cell (e.g. the worst one), focuses the heatmap and reports the cell. */
  focusCell(row: number, token: number): void;
}

/**
 * Canvas heatmap of |actual − reference| (chunked − serial by default) over the padded batch
 * `[rows, cols]`. It pools nothing itself: its `source` gives the pooled picture for the canvas's
 * size; the arrays here give the readout of the one cell under the pointer, or, for a batch that
 * stays in a worker, `cells` asks the worker for that cell.
 */
export interface ErrorHeatmapProps extends HeatmapData {
  /** Where the pooled picture comes from (picture.ts): a new source for new data, the same one otherwise. */
  source: PictureSource;
  /** Colour domain over the whole batch (default) or the selected row only; printed in the legend. */
  colourScope?: ColourScope;
  /** Row drawn as selected. */
  selectedRow: number;
  /** Called when a row is clicked or chosen with Enter. */
  onSelectRow(row: number): void;
  /** Called with the cell under the pointer or the keyboard cursor, null when it leaves. */
  onHoverCell?(cell: HeatmapCell | null): void;
  /** Token hovered in another view (a chart, the editor): drawn as a vertical line. */
  hoverToken?: number | null;
  /** Show the legend under the heatmap (default true); HeatmapLegend can be placed elsewhere instead. */
  showLegend?: boolean;
  /** What `actual` and `reference` are (default: the chunked scan and the serial one), in the legend and readout. */
  sides?: SideNames;
  /** Receives the heatmap's handle (PNG export, focus a cell). */
  ref?: Ref<HeatmapHandle>;
  /**
   * Told, after it is drawn, each picture that shows the current props (by its `reference` and
   * `actual`, the very arrays of the props; undefined with `cells`, whose page knows its data by its
   * callback): a picture a worker pools lags new props by its round trip. A new result may keep its
   * reference (the same serial scan), never its `actual`.
   */
  onDrawn?(reference: ArrayLike<number> | undefined, actual: ArrayLike<number> | undefined): void;
}

type Bin = { bx: number; by: number };
type Cell = { row: number; token: number };
const NONE = new Float64Array(0);

/** The width laid out (and asked of the picture's source) in the render before the first measure. */
const FALLBACK_WIDTH = 640;

export function ErrorHeatmap(props: ErrorHeatmapProps) {
  const { selectedRow, onSelectRow, onHoverCell } = props;
  // The picture may lag the props (a worker pools it), so everything below reads the data it was
  // pooled from, never newer props.
  const wrapRef = useRef<HTMLDivElement>(null);
  // Nothing is asked or drawn before the browser's layout reports the width: measured in the mount's
  // commit, it forced the page's layout there and drew both canvases twice (a guessed width, then the
  // real one) in the task that mounts the heatmap.
  const measured = useMeasuredWidth(wrapRef);
  const width = measured ?? FALLBACK_WIDTH;
  const dpr = typeof window === "undefined" ? 1 : window.devicePixelRatio || 1;
  const layout = useMemo(() => heatmapLayout(width, props.rows, dpr), [width, props.rows, dpr]);
  const scope = props.colourScope ?? "batch";
  const colourRow = scope === "row" ? Math.max(0, selectedRow) : -1;
  const shown = usePicture(props, {
    maxBinsX: layout.maxBinsX,
    maxBinsY: layout.maxBinsY,
    colourRow,
    measured: measured !== null,
  });
  const { rows, cols, lengths, reference, actual, lossMask, bound, cells, chunkBoundaries } = shown.data;
  const hasBound = cells ? shown.data.hasBound === true : bound !== undefined;
  const { grid, relFloor } = shown.picture;
  const sides = props.sides ?? SCAN_SIDES;
  const name = sides.gap === "difference" ? "Difference heatmap" : "Error heatmap";
  const baseRef = useRef<HTMLCanvasElement>(null);
  const overlayRef = useRef<HTMLCanvasElement>(null);

  // The legend names the row whose bins coloured the picture (in a row scope).
  const model = useMemo(
    () =>
      heatmapModel(
        {
          hasBound,
          metric: shown.data.metric,
          precision: shown.data.precision,
          scope,
          selectedRow: colourRow,
          sides,
        },
        shown.picture,
      ),
    [shown.picture, hasBound, shown.data.metric, shown.data.precision, scope, colourRow, sides],
  );
  const picture: HeatmapPicture = useMemo(
    () => ({
      grid,
      pixels: shown.picture.pixels,
      bitmap: shown.picture.bitmap,
      rows,
      cols,
      layout,
      chunkBoundaries,
      worst: shown.picture.worst,
    }),
    [grid, shown.picture, rows, cols, layout, chunkBoundaries],
  );

  const [cursor, setCursor] = useState<Bin | null>(null);
  const [hoverBin, setHoverBin] = useState<Bin | null>(null);
  const [readout, setReadout] = useState<HeatmapCell | null>(null);

  useLayoutEffect(() => {
    const canvas = baseRef.current;
    const ctx = measured === null ? null : canvas?.getContext("2d");
    if (!canvas || !ctx) return;
    const started = performance.now();
    // Sized only when the size changes: setting a canvas's size, even to the same, drops and remakes
    // its backing store. The draw paints every pixel; save/restore give it a fresh context's state.
    const w = Math.round(layout.width * dpr);
    const h = Math.round(layout.height * dpr);
    if (canvas.width !== w) canvas.width = w;
    if (canvas.height !== h) canvas.height = h;
    ctx.save();
    drawHeatmapBase(ctx, picture, dpr);
    ctx.restore();
    // Written here, not kept in state: a state set in this effect rendered the heatmap a second time,
    // synchronously, in the commit of every new picture (the edit's frame at teaching size).
    wrapRef.current?.setAttribute("data-draw-ms", (performance.now() - started).toFixed(1));
  }, [picture, layout, dpr, measured]);

  const { onDrawn } = props;
  const current = measured !== null && shown.current && sameData(shown.data, props);
  // In the commit that draws the picture (its canvas is drawn in a layout effect above).
  useLayoutEffect(() => {
    if (current) onDrawn?.(reference, actual);
  }, [current, reference, actual, onDrawn]);

  const marked = hoverBin ?? cursor;
  const hoverToken = props.hoverToken ?? null;
  useLayoutEffect(() => {
    const canvas = overlayRef.current;
    if (!canvas || measured === null) return;
    const w = Math.round(layout.width * dpr);
    const h = Math.round(layout.height * dpr);
    const inGrid = marked && marked.bx < picture.grid.binsX && marked.by < picture.grid.binsY ? marked : null;
    const draw = () => {
      const ctx = canvas.getContext("2d");
      if (!ctx) return;
      if (canvas.width !== w || canvas.height !== h) {
        canvas.width = w;
        canvas.height = h;
      }
      drawHeatmapOverlay(ctx, picture, { selectedRow, cursor: inGrid, hoverToken }, dpr);
    };
    if (canvas.width === w && canvas.height === h) {
      draw();
      return;
    }
    // A canvas of a new size is drawn in a task of its own: its backing store made and cleared (and, on
    // the first draw, the compositor's new layer) in the task that drew the base doubled it, 79–86 ms
    // wall after a 512-sample dump's verdict. The marks follow a task later; the base is never late.
    const later = setTimeout(draw, 0);
    return () => clearTimeout(later);
  }, [picture, layout, dpr, selectedRow, marked, hoverToken, measured]);

  const cellInput = {
    cols,
    lengths,
    reference: reference ?? NONE,
    actual: actual ?? NONE,
    lossMask,
    bound,
    chunkBoundaries,
    precision: shown.data.precision,
    relFloor,
  };
  const cellAt = (bin: Bin): Cell => cellOfBin(grid, cols, bin.bx, bin.by);
  // Each report numbered: a worker's answer to an older one is not drawn over a newer.
  const asked = useRef(0);
  const report = (at: Cell | null) => {
    const n = ++asked.current;
    const show = (cell: HeatmapCell | null) => {
      if (n !== asked.current) return;
      setReadout(cell);
      onHoverCell?.(cell);
    };
    if (!at) show(null);
    else if (!cells) show(heatmapCell(cellInput, at.row, at.token));
    else
      cells(at.row, at.token).then(
        (values) => values && show(heatmapCellOf(cellInput, at.row, at.token, values)),
        () => {}, // superseded by a newer ask, or the worker holds newer data
      );
  };

  // The reported cell's numbers stay live when the data under it changes.
  const liveRef = useRef({ marked, cellAt, report });
  liveRef.current = { marked, cellAt, report };
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-report only when the data changes
  useEffect(() => {
    const { marked, cellAt, report } = liveRef.current;
    if (marked && marked.bx < grid.binsX && marked.by < grid.binsY) report(cellAt(marked));
  }, [grid, reference, actual, cells]);

  const pointerBin = (e: MouseEvent<HTMLCanvasElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    return binAt(layout, grid, e.clientX - rect.left, e.clientY - rect.top);
  };
  const onPointerMove = (e: PointerEvent<HTMLCanvasElement>) => {
    const bin = pointerBin(e);
    if (bin?.bx === hoverBin?.bx && bin?.by === hoverBin?.by) return;
    setHoverBin(bin);
    report(bin ? cellAt(bin) : cursor ? cellAt(cursor) : null);
  };
  const onPointerLeave = () => {
    setHoverBin(null);
    report(cursor && document.activeElement === overlayRef.current ? cellAt(cursor) : null);
  };
  const onClick = (e: MouseEvent<HTMLCanvasElement>) => {
    const bin = pointerBin(e);
    if (!bin) return;
    setCursor(bin);
    onSelectRow(cellAt(bin).row);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLCanvasElement>) => {
    const from = cursor ?? binOfCell(grid, Math.max(0, selectedRow), 0);
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      setCursor(from);
      onSelectRow(cellAt(from).row);
      return;
    }
    if (e.key === "Escape") {
      setCursor(null);
      report(null);
      return;
    }
    const next = moveCursor(grid, from, e.key);
    if (!next) return;
    e.preventDefault();
    setCursor(next);
    setHoverBin(null);
    report(cellAt(next));
  };
  const onFocus = () => {
    const at = cursor ?? binOfCell(grid, Math.max(0, Math.min(selectedRow, rows - 1)), 0);
    setCursor(at);
    report(cellAt(at));
  };

  const liveModel = useRef(model);
  liveModel.current = model;
  useImperativeHandle(props.ref, () => ({
    toPng: () => {
      const canvas = baseRef.current;
      if (!canvas) return Promise.reject(new Error("the heatmap is not on screen"));
      return heatmapPng(canvas, liveModel.current.legend, `${name}, ${rows} rows × ${cols} tokens`, dpr);
    },
    focusCell: (row, token) => {
      const bin = binOfCell(grid, row, token);
      setCursor(bin);
      overlayRef.current?.focus();
      report({ row, token });
    },
  }));

  return (
    <figure className="error-heatmap">
      <figcaption>
        <span className="error-heatmap-title">
          {name} · {rows} rows × {cols} tokens
        </span>
        <output className="error-heatmap-readout" aria-live="polite">
          {readout ? (
            <CellReadout cell={readout} precision={shown.data.precision} sides={sides} />
          ) : (
            "hover or focus a cell for its values"
          )}
        </output>
      </figcaption>
      <div
        ref={wrapRef}
        className="error-heatmap-canvases"
        style={{ height: layout.height }}
        data-bins={`${grid.binsX}×${grid.binsY}`}
      >
        <canvas ref={baseRef} style={{ width: layout.width, height: layout.height }} />
        <canvas
          ref={overlayRef}
          className="error-heatmap-overlay"
          style={{ width: layout.width, height: layout.height }}
          tabIndex={0}
          aria-label={`${name}, ${rows} rows × ${cols} tokens. Arrow keys move a cursor; Enter selects its row.`}
          onPointerMove={onPointerMove}
          onPointerLeave={onPointerLeave}
          onClick={onClick}
          onKeyDown={onKeyDown}
          onFocus={onFocus}
        />
      </div>
      {props.showLegend !== false && <HeatmapLegend model={model.legend} />}
    </figure>
  );
}

function CellReadout({
  cell,
  precision,
  sides,
}: {
  cell: HeatmapCell;
  precision: "float32" | "float64";
  sides: SideNames;
}) {
  const where = `row ${cell.row} · t ${cell.token} · chunk ${cell.chunk}`;
  if (cell.padding) return <>{where} · padding (beyond the row's length)</>;
  const loss = cellLoss(cell.serial, cell.chunked);
  const masked = cell.masked ? " · masked" : "";
  const symbols = sides.symbols ?? sides;
  if (loss) {
    // No error figure and no bound verdict for a cell NaN or ±Inf took: say who lost it.
    const format = (x: number, side: "reference" | "actual") =>
      formatValue(x, side === "reference" ? "float64" : precision);
    return (
      <>
        {where} · {cellLossText(loss, cell.serial, cell.chunked, sides, format)}
        {masked}
      </>
    );
  }
  return (
    <>
      {where} · {symbols.reference} {formatValue(cell.serial, "float64")} · {symbols.actual}{" "}
      {formatValue(cell.chunked, precision)} · abs {formatShort(cell.abs)} · rel {formatShort(cell.rel)} ·{" "}
      {formatShort(cell.ulp)} ulp
      {masked}
      {cell.overBound ? " · over bound ▲" : ""}
      {cell.unchecked ? " · bound NaN / ∞: not checked" : ""}
    </>
  );
}
