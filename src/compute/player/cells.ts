import { formatShort } from "../../io/formatNumber";
import { cellError } from "./errorSummary";
import { type Frame, localKnown } from "./frame";
import { localIndex, type Replay, tokenOf } from "./replay";

/** The lanes of one row on the stage, top to bottom. */
export type LaneId = "input" | "local" | "result" | "returns" | "serial" | "error";

export type CellState =
  /** Not computed yet at this step. */
  | "hidden"
  | "value"
  /** Zeros the scan pads each reversed row with, to fill its last chunk (before t = 0). */
  | "chunk-pad"
  /** REINFORCE++: zeros after a short row's end, up to the batch's longest row. */
  | "batch-pad"
  /** REINFORCE++: an output cut away by the trim. */
  | "trimmed";

export type CellMark = "current" | "feeding" | "source" | undefined;

export interface CellView {
  state: CellState;
  /** The number drawn (full precision; float32 values are exact doubles). */
  value?: number;
  precision: "float32" | "float64";
  mark: CellMark;
  /** Error lane: |error| / bound, and whether it is over the bound. */
  ratio?: number;
}

/**
 * One cell of the stage at reversed position i of row b: what it holds at this frame and how it
 * is marked. A pure function of (replay, frame), so stepping back redraws exactly the same cell.
 */
export function cellView(r: Replay, f: Frame, lane: LaneId, b: number, i: number): CellView {
  const { reveal, step } = f;
  const C = r.chunkSize;
  const c = Math.floor(i / C);
  const k = i - c * C;
  const precision = lane === "serial" ? "float64" : "float32";
  const t = tokenOf(r, i);
  const empty = (state: CellState): CellView => ({ state, precision, mark: undefined });
  if (t < 0) return empty(reveal.chunkPad ? "chunk-pad" : "hidden");
  const j = b * r.cols + t;
  const beyondRow = t >= r.lengths[b];
  if (beyondRow && !reveal.batchPad) return empty("hidden");

  switch (lane) {
    case "input": {
      if (beyondRow) return { state: "batch-pad", value: 0, precision, mark: undefined };
      const value = reveal.input === "penalty" ? (r.reinforce?.penalty[j] ?? 0) : r.scanned[j];
      let mark: CellMark;
      if ((step.kind === "local" || step.kind === "chunk-end") && c === step.chunk && k <= step.k) mark = "feeding";
      if (step.kind === "outcome" && t === r.reinforce?.lastUnmasked[b]) mark = "current";
      return { state: "value", value, precision, mark };
    }
    case "local": {
      if (!localKnown(reveal, c, k)) return empty("hidden");
      let mark: CellMark;
      if (step.phase === "local" && c === step.chunk && k === step.k) mark = "current";
      if (step.kind === "carry" && c === step.chunk) mark = "feeding";
      return { state: beyondRow ? "batch-pad" : "value", value: r.localScans[localIndex(r, b, i)], precision, mark };
    }
    case "result": {
      if (beyondRow && reveal.trimmed) return empty("trimmed");
      if (reveal.final) {
        const mark = step.kind === "trim" && beyondRow ? "current" : undefined;
        return { state: beyondRow ? "batch-pad" : "value", value: r.engineOut[j], precision, mark };
      }
      if (c >= reveal.carried) return empty("hidden");
      let mark: CellMark;
      if (step.kind === "carry" && c === step.chunk) mark = "current";
      if (step.kind === "carry" && step.chunk > 0 && i === step.chunk * C - 1) mark = "source";
      return { state: beyondRow ? "batch-pad" : "value", value: r.combined[j], precision, mark };
    }
    case "returns": {
      if (!reveal.gaeReturns || !r.gae) return empty("hidden");
      return { state: "value", value: r.gae.returns[j], precision, mark: undefined };
    }
    case "serial": {
      if (i >= reveal.serialUpTo) return empty("hidden");
      if (beyondRow) return empty(reveal.trimmed ? "trimmed" : "batch-pad");
      const mark = step.phase === "local" && i === reveal.serialUpTo - 1 ? "current" : undefined;
      return { state: "value", value: r.serial[j], precision, mark };
    }
    case "error": {
      if (!reveal.errors) return empty("hidden");
      if (beyondRow) return empty("trimmed");
      const { error, ratio } = cellError(r, j);
      return { state: "value", value: error, precision: "float64", mark: undefined, ratio };
    }
  }
}

/**
 * A cell's accessible name: lane, token, row and full number, led by the short number or the ✕
 * the cell prints, so what is seen is what is heard (axe's label-content-name-mismatch).
 */
export function cellName(lane: string, t: number, b: number, full: string, printed: string | undefined, over: boolean) {
  const where = `${lane} at t = ${t}, row ${b}: ${full}`;
  const lead = printed === undefined || printed === full ? "" : `${printed}, `;
  return `${lead}${where}${over ? ", ✕ over its error bound" : ""}`;
}

/** The lanes a row shows for an estimator (GAE adds its returns, R = A + V). */
export function lanesOf(r: Replay): LaneId[] {
  return r.kind === "gae"
    ? ["input", "local", "result", "returns", "serial", "error"]
    : ["input", "local", "result", "serial", "error"];
}

/** The advance of one character of a cell's number (player.css: 9.5 px monospace, 0.6 em; 8 px for a compact one), and a margin. */
const CELL_CHAR_PX = 5.7;
const COMPACT_CHAR_PX = 4.8;
const CELL_MARGIN_PX = 2;
/** Narrower cells print nothing: a few numbers scattered over a lane of colours read as noise. */
const COMPACT_MIN_PX = 20;

export interface CellText {
  text: string;
  /** Drawn smaller: two significant digits on a narrow cell. */
  compact: boolean;
}

/**
 * The number a cell `width` px wide prints: formatShort's when it fits, else (on a cell of at
 * least 20 px: a phone's) two significant digits without the leading zero (".73", "-.25", "12")
 * in a smaller type, else none (the cell's card and its accessible name hold the full number).
 */
export function cellText(value: number, width: number): CellText | undefined {
  const full = formatShort(value);
  if (full.length * CELL_CHAR_PX + CELL_MARGIN_PX <= width) return { text: full, compact: false };
  const a = Math.abs(value);
  if (width < COMPACT_MIN_PX || !Number.isFinite(value) || a < 0.01 || a >= 100) return undefined;
  const text = String(Number(value.toPrecision(2))).replace(/^(-?)0\./, "$1.");
  return text.length * COMPACT_CHAR_PX + CELL_MARGIN_PX <= width ? { text, compact: true } : undefined;
}
