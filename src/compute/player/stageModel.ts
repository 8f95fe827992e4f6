import type { LaneId } from "./cells";
import type { RegionId } from "./frame";
import type { Replay } from "./replay";

/** Vertical geometry of the stage (pixels). */
export const LABEL_WIDTH = 128;
export const LANE_HEIGHT = 20;
export const CARRY_HEIGHT = 26;
export const ROW_GAP = 12;
export const AXIS_HEIGHT = 34;
/** Rows drawn at once; ↑ ↓ move the window with the focus row. */
export const MAX_VISIBLE_ROWS = 3;

export type StageLane = LaneId | "carry";

export function laneLabel(r: Replay, lane: StageLane, penalty: boolean): string {
  const G = r.kind === "gae" ? "A" : "G";
  switch (lane) {
    case "input":
      return r.kind === "gae"
        ? "δ_t residual"
        : r.kind === "reinforce_pp"
          ? penalty
            ? "−β·kl·mask"
            : "token reward"
          : "r_t reward";
    case "local":
      return "local sum";
    case "carry":
      return "carry s_c";
    case "result":
      return `${G}_t chunked`;
    case "returns":
      return "R_t = A_t + V_t";
    case "serial":
      return `${G}_t serial f64`;
    case "error":
      return "|error|";
  }
}

export function regionOfLane(lane: StageLane): RegionId {
  switch (lane) {
    case "input":
      return "input-lane";
    case "local":
      return "local-lane";
    case "carry":
      return "carry-lane";
    case "result":
    case "returns":
      return "result-lane";
    case "serial":
      return "serial-lane";
    case "error":
      return "error-lane";
  }
}

/** The lanes of a row in drawing order, with the carry lane between the local sums and the results. */
export function stageLanes(lanes: LaneId[]): StageLane[] {
  const out: StageLane[] = [];
  for (const lane of lanes) {
    out.push(lane);
    if (lane === "local") out.push("carry");
  }
  return out;
}

/** Lane heights: compact when three or more rows are drawn, so the stage keeps to one screen. */
export function laneHeight(lane: StageLane, rows: number): number {
  const dense = rows >= 3;
  if (lane === "carry") return dense ? CARRY_HEIGHT - 4 : CARRY_HEIGHT;
  return dense ? LANE_HEIGHT - 4 : LANE_HEIGHT;
}

/** The rows drawn: a window of up to MAX_VISIBLE_ROWS that contains the focus row. */
export function visibleRows(rows: number, focusRow: number): number[] {
  const count = Math.min(rows, MAX_VISIBLE_ROWS);
  const start = Math.max(0, Math.min(rows - count, focusRow - Math.floor(count / 2)));
  return Array.from({ length: count }, (_, n) => start + n);
}

/** Largest |value| over the given rows of a [B, T] array: the colour domain of a lane group. */
export function extentOf(values: ArrayLike<number>, cols: number, rows: number[]): number {
  let m = 0;
  for (const b of rows) {
    for (let t = 0; t < cols; t++) {
      const v = Math.abs(values[b * cols + t]);
      if (Number.isFinite(v) && v > m) m = v;
    }
  }
  return m;
}

export interface Extents {
  input: number;
  output: number;
  returns: number;
}

/** The colour domains of the drawn rows: inputs, the scan's outputs (local and final), GAE's returns. */
export function stageExtents(r: Replay, rows: number[]): Extents {
  return {
    input: Math.max(extentOf(r.scanned, r.cols, rows), r.reinforce ? extentOf(r.reinforce.penalty, r.cols, rows) : 0),
    output: Math.max(extentOf(r.serial, r.cols, rows), extentOf(r.localScans, r.nChunks * r.chunkSize, rows)),
    returns: r.gae ? extentOf(r.gae.serialReturns, r.cols, rows) : 0,
  };
}

/** |chunked − serial| of every cell, for the error lane's decades. */
export function cellErrors(r: Replay): Float64Array {
  const out = new Float64Array(r.engineOut.length);
  for (let j = 0; j < out.length; j++) out[j] = Math.abs(r.engineOut[j] - r.serial[j]);
  return out;
}
