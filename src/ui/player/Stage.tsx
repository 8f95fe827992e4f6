import { memo, type ReactNode, useMemo } from "react";
import { dataValue, f32, f64 } from "../../compute/player/captions";
import { type CellView, cellName, cellText, cellView, lanesOf } from "../../compute/player/cells";
import type { Frame, RegionId } from "../../compute/player/frame";
import { type Replay, tokenOf } from "../../compute/player/replay";
import type { StageLayout, TokenColumn } from "../../compute/player/stageLayout";
import {
  AXIS_HEIGHT,
  cellErrors,
  type Extents,
  LABEL_WIDTH,
  laneHeight,
  laneLabel,
  ROW_GAP,
  regionOfLane,
  type StageLane,
  stageExtents,
  stageLanes,
} from "../../compute/player/stageModel";
import { formatShort } from "../../io/formatNumber";
import { CarryLane } from "./CarryLane";
import { CARRY_COLOUR, type Decades, errorDecades, errorFill, signedFill, textOn } from "./colors";
import { Axis } from "./StageAxis";

export interface Inspected {
  b: number;
  t: number;
  lane: "input" | "local" | "result" | "returns" | "serial" | "error";
}

export interface StageProps {
  replay: Replay;
  frame: Frame;
  layout: StageLayout;
  rows: number[];
  /** Regions the tour or the narrative lights up (all others dim while the tour runs). */
  emphasis?: RegionId[];
  inspected?: Inspected;
  onInspect(target: Inspected | undefined): void;
}

/** The rows banded by chunk, lane above lane, on one token axis: a pure drawing of (replay, frame). */
export const Stage = memo(function Stage({
  replay: r,
  frame: f,
  layout,
  rows,
  emphasis,
  inspected,
  onInspect,
}: StageProps) {
  const lanes = stageLanes(lanesOf(r));
  const rowHeight = lanes.reduce((h, lane) => h + laneHeight(lane, rows.length), 0);
  const height = AXIS_HEIGHT + rows.length * (rowHeight + ROW_GAP) - ROW_GAP + 4;
  const width = LABEL_WIDTH + layout.width + 4;
  const extents = useMemo(() => stageExtents(r, rows), [r, rows]);
  const decades = useMemo(() => errorDecades(cellErrors(r)), [r]);
  const dim = (region: RegionId) => (emphasis && !emphasis.includes(region) ? " dim" : "");
  const context: CellContext = { r, w: layout.cell, extents, decades, inspected, onInspect };

  return (
    // biome-ignore lint/a11y/useSemanticElements: an SVG cannot be a fieldset; a group, not an image, because its cells are buttons
    <svg
      className="player-stage-svg"
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      role="group"
      aria-label={`Stage: ${r.rows} row${r.rows === 1 ? "" : "s"} of ${r.cols} tokens in ${r.nChunks} chunks of ${r.chunkSize}`}
    >
      <defs>
        <HatchPattern id="player-hatch" />
        <pattern id="player-mask" width="4" height="4" patternUnits="userSpaceOnUse">
          <rect width="4" height="4" fill="#e5e7eb" />
          <circle cx="2" cy="2" r="0.9" fill="#6b7280" />
        </pattern>
        <marker
          id="player-carry-head"
          viewBox="0 0 10 10"
          refX="9"
          refY="5"
          markerWidth="7"
          markerHeight="7"
          orient="auto"
        >
          <path d="M0,0 L10,5 L0,10 z" fill={CARRY_COLOUR} />
        </marker>
      </defs>
      <Axis replay={r} frame={f} layout={layout} height={height} />
      {rows.map((b, n) => {
        const top = AXIS_HEIGHT + n * (rowHeight + ROW_GAP);
        let y = top;
        const drawn: ReactNode[] = [];
        for (const lane of lanes) {
          const h = laneHeight(lane, rows.length);
          const label = laneLabel(r, lane, f.reveal.input === "penalty");
          drawn.push(
            <g key={lane} className={`lane lane-${lane}${dim(regionOfLane(lane))}`} data-region={regionOfLane(lane)}>
              <text className="lane-label" x={LABEL_WIDTH - 8} y={y + h / 2 + 4} textAnchor="end">
                {label}
              </text>
              {lane === "carry" ? (
                <CarryLane replay={r} frame={f} layout={layout} b={b} y={y} />
              ) : (
                <g transform={`translate(${LABEL_WIDTH} 0)`}>
                  {layout.bands.map((band, n) => {
                    const columns = layout.tokens.slice(n * r.chunkSize, (n + 1) * r.chunkSize);
                    const cells = columns.map((col) => cellView(r, f, lane, b, col.i));
                    return (
                      <BandCells
                        key={band.x}
                        ctx={context}
                        lane={lane}
                        b={b}
                        y={y}
                        h={h}
                        columns={columns}
                        cells={cells}
                        firstSlot={n * r.chunkSize}
                      />
                    );
                  })}
                  {layout.folds.map((fold) => (
                    <g key={`fold-${fold.firstChunk}`} className="fold">
                      <rect x={fold.x} y={y + 1} width={fold.width} height={h - 2} rx={3} />
                    </g>
                  ))}
                </g>
              )}
            </g>,
          );
          y += h;
        }
        return (
          <g key={b} className={b === f.focusRow ? "stage-row focus-row" : "stage-row"} data-row={b}>
            <rect className="row-bar" x={2} y={top + 2} width={3} height={rowHeight - 4} rx={1.5} />
            <text
              className="row-label"
              transform={`translate(16 ${top + rowHeight / 2}) rotate(-90)`}
              textAnchor="middle"
            >
              row {b}
              {r.lengths[b] < r.cols ? ` · L = ${r.lengths[b]}` : ""}
            </text>
            {drawn}
          </g>
        );
      })}
    </svg>
  );
});

/** Padding's diagonal hatch, defined in each SVG that draws padding (a pattern is looked up by id). */
export function HatchPattern({ id }: { id: string }) {
  return (
    <pattern id={id} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
      <rect width="6" height="6" fill="#f3f4f6" />
      <line x1="0" y1="0" x2="0" y2="6" stroke="#9ca3af" strokeWidth="2" />
    </pattern>
  );
}

/** How a cell's lane is read out in its accessible name. */
const LANE_NAMES: Record<Exclude<StageLane, "carry">, string> = {
  input: "input",
  local: "local sum",
  result: "chunked output",
  returns: "returns",
  serial: "serial float64",
  error: "|error|",
};

/** What every cell of one drawing shares. */
interface CellContext {
  r: Replay;
  w: number;
  extents: Extents;
  decades: Decades | undefined;
  inspected: Inspected | undefined;
  onInspect(target: Inspected | undefined): void;
}

interface BandProps {
  ctx: CellContext;
  lane: StageLane;
  b: number;
  y: number;
  h: number;
  columns: TokenColumn[];
  cells: CellView[];
  firstSlot: number;
}

/**
 * One chunk of one lane. A step changes the cells of a chunk or two, so the others are compared
 * by content and not redrawn: stepping and scrubbing touch only what changed.
 */
const BandCells = memo(function BandCells({ ctx, lane, b, y, h, columns, cells, firstSlot }: BandProps) {
  return <>{columns.map((col, n) => drawCell(ctx, cells[n], lane, b, col.i, col.x, y, h, firstSlot + n))}</>;
}, sameBand);

function sameBand(a: BandProps, z: BandProps): boolean {
  const [p, q] = [a.ctx, z.ctx];
  if (p.r !== q.r || p.w !== q.w || p.extents !== q.extents || p.decades !== q.decades || p.onInspect !== q.onInspect) {
    return false;
  }
  if (a.lane !== z.lane || a.b !== z.b || a.y !== z.y || a.h !== z.h || a.firstSlot !== z.firstSlot) return false;
  if (a.columns.length !== z.columns.length) return false;
  if (inspectedToken(a) !== inspectedToken(z)) return false;
  for (let n = 0; n < a.columns.length; n++) {
    if (a.columns[n].i !== z.columns[n].i || a.columns[n].x !== z.columns[n].x) return false;
    const [c, d] = [a.cells[n], z.cells[n]];
    if (c.state !== d.state || c.mark !== d.mark || !Object.is(c.value, d.value) || c.ratio !== d.ratio) return false;
  }
  return true;
}

/** The reversed position of the inspected cell if it lies in this band's lane and row, else -1. */
function inspectedToken({ ctx, lane, b, columns }: BandProps): number {
  const target = ctx.inspected;
  if (!target || target.lane !== lane || target.b !== b) return -1;
  const i = ctx.r.cols - 1 - target.t;
  return columns.some((col) => col.i === i) ? i : -1;
}

/**
 * One cell: always a <g> holding a <rect>, keyed by its slot on the stage, so stepping and
 * scrubbing only update attributes instead of recreating elements.
 */
function drawCell(
  ctx: CellContext,
  cell: CellView,
  lane: StageLane,
  b: number,
  i: number,
  x: number,
  y: number,
  h: number,
  slot: number,
) {
  const { r, w, extents, decades, inspected, onInspect } = ctx;
  const t = tokenOf(r, i);
  const pad = w >= 6 ? 1 : 0;
  const box = { x: x + pad / 2, y: y + 1, width: Math.max(1, w - pad), height: h - 2, rx: w >= 10 ? 2 : 0 };
  const hatched =
    cell.state === "chunk-pad" || (cell.state === "batch-pad" && (lane === "input" || cell.value === undefined));
  const shown = cell.state !== "hidden" && cell.state !== "trimmed" && !hatched;
  const value = cell.value ?? 0;
  const masked = shown && lane === "input" && r.reinforce !== undefined && r.reinforce.mask[b * r.cols + t] === 0;
  const extent = lane === "input" ? extents.input : lane === "returns" ? extents.returns : extents.output;
  const fill = hatched
    ? "url(#player-hatch)"
    : !shown
      ? undefined
      : lane === "error"
        ? errorFill(value, decades)
        : signedFill(value, extent);
  const over = shown && lane === "error" && (cell.ratio ?? 0) > 1;
  const selected = inspected && inspected.b === b && inspected.t === t && inspected.lane === lane;
  // Numbers wherever they fit, two digits on a narrow cell (a phone); the card holds the full number.
  const printed = shown && lane !== "error" ? cellText(value, w) : undefined;
  const attributes = {
    className: `cell ${cell.state}${cell.mark ? ` mark-${cell.mark}` : ""}${selected ? " inspected" : ""}`,
    "data-state": cell.state,
    "data-lane": lane,
    "data-row": b,
    "data-t": t,
    "data-value": cell.value === undefined || !(shown || hatched) ? undefined : dataValue(value),
    "data-mark": cell.mark,
  };
  const inner = (
    <>
      <rect {...box} fill={fill} />
      {masked ? <rect {...box} className="masked" fill="url(#player-mask)" /> : null}
      {printed ? (
        <text
          x={x + w / 2}
          y={y + h / 2 + 4}
          textAnchor="middle"
          fill={textOn(value, extent)}
          className={printed.compact ? "compact" : undefined}
        >
          {printed.text}
        </text>
      ) : null}
      {over ? (
        <text x={x + w / 2} y={y + h / 2 + 4} textAnchor="middle" className="over-bound">
          ✕
        </text>
      ) : null}
    </>
  );
  // A cell with nothing in it yet (or padding) is drawn only: no name to read, nothing to open.
  if (!shown || lane === "carry") {
    return (
      <g key={slot} {...attributes}>
        {inner}
      </g>
    );
  }
  // Every value opens its card (its number and how it was made) on hover, focus, click or tap, and
  // names its number to a screen reader: nothing on the stage is colour alone. Only the outputs are
  // Tab stops (every cell would be hundreds); the others are reached by pointer or the card.
  const target: Inspected = { b, t, lane };
  const focusable = lane === "result" || lane === "returns";
  const number = lane === "error" ? formatShort(value) : lane === "serial" ? f64(value) : f32(value);
  return (
    // biome-ignore lint/a11y/useSemanticElements: an SVG cell cannot be a <button>; it opens the cell's card
    <g
      key={slot}
      {...attributes}
      role="button"
      tabIndex={focusable ? 0 : undefined}
      aria-label={cellName(LANE_NAMES[lane], t, b, number, printed?.text, over)}
      onPointerEnter={() => onInspect(target)}
      onFocus={() => onInspect(target)}
      onClick={() => onInspect(target)}
    >
      {inner}
    </g>
  );
}
