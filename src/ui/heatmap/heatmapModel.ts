import type { DecadeScale } from "../../compute/heatmap/colourScale";
import type { CellLookup, CellValues, PictureData, PooledPicture } from "../../compute/heatmap/picture";
import {
  BoundVerdict,
  boundVerdict,
  cellReadout,
  type ErrorMetric,
  type Precision,
  type SideNames,
} from "../../compute/playground/cellErrors";
import type { PooledGrid } from "../../compute/playground/pooling";
import { chunkOfToken } from "../charts/chunkBoundaries";
import type { HeatmapCell } from "./heatmapCell";
import { type LegendModel, legendModel } from "./legendModel";

/**
 * The batch a heatmap shows, padded `[rows, cols]` row-major (the reference is the float64 serial
 * scan, `actual` the chunked side; `bound` outlines cells over it with a ▲): its picture is pooled
 * from these, its readouts read them. Where the batch stays in a worker there are no arrays: the
 * readout asks `cells`, and `hasBound` says whether the batch has a bound.
 */
export interface HeatmapData extends Omit<PictureData, "reference" | "actual"> {
  reference?: PictureData["reference"];
  actual?: PictureData["actual"];
  cells?: CellLookup;
  hasBound?: boolean;
  /** Token indices where a chunk starts, shared by all rows (aligned to the padded length; chunkStarts). */
  chunkBoundaries: number[];
  /** Error measure coloured: absolute, relative or units in the last place. */
  metric: ErrorMetric;
  /** Precision of the chunked result: the ulp counted and the digits shown. */
  precision: Precision;
}

/** Where the colour domain is taken from: the whole batch, or the selected row only. */
export type ColourScope = "batch" | "row";

/** The pooled picture and its legend: everything the heatmap draws, before any canvas. */
export interface HeatmapModel {
  grid: PooledGrid;
  scale: DecadeScale;
  domain: { min: number; max: number };
  legend: LegendModel;
  /** Bin of the largest finite error (see worstBin), marked on the picture; −1 if none. */
  worst: number;
}

/** What the legend says beside the pooled picture (the picture itself comes from a picture source). */
export interface HeatmapModelInput {
  hasBound: boolean;
  metric: ErrorMetric;
  precision: Precision;
  scope: ColourScope;
  selectedRow: number;
  /** What is compared (default: the chunked scan against the serial reference). */
  sides?: SideNames;
}

/** The legend of a picture; no pass over its bins (the picture's source made them). */
export function heatmapModel(input: HeatmapModelInput, picture: PooledPicture): HeatmapModel {
  const { grid, scale, domain, present, relFloor } = picture;
  const legend = legendModel({
    metric: input.metric,
    precision: input.precision,
    scale,
    domain,
    scope: input.scope === "row" ? `row ${input.selectedRow}` : "batch",
    grid,
    relFloor,
    present,
    hasBound: input.hasBound,
    sides: input.sides,
  });
  return { grid, scale, domain, legend, worst: picture.worst };
}

/** What a readout needs besides the cell's own values. */
export interface CellContext {
  cols: number;
  lengths: ArrayLike<number>;
  chunkBoundaries: readonly number[];
  precision: Precision;
  relFloor: number;
}

/** The hover readout of one cell, in all three measures, read off the batch's arrays. */
export function heatmapCell(
  input: CellContext & {
    reference: ArrayLike<number>;
    actual: ArrayLike<number>;
    lossMask?: ArrayLike<number>;
    bound?: ArrayLike<number>;
  },
  row: number,
  token: number,
): HeatmapCell {
  const i = row * input.cols + token;
  const values = {
    reference: input.reference[i],
    actual: input.actual[i],
    lossMask: input.lossMask?.[i],
    bound: input.bound?.[i],
  };
  return heatmapCellOf(input, row, token, values);
}

/** The hover readout of one cell from its values (read off the arrays, or asked of the worker that holds them). */
export function heatmapCellOf(
  input: CellContext,
  row: number,
  token: number,
  values: Pick<CellValues, "reference" | "actual"> & { lossMask: number | undefined; bound: number | undefined },
): HeatmapCell {
  const serial = values.reference;
  const chunked = values.actual;
  const padding = token >= (input.lengths[row] ?? input.cols);
  const verdict = boundVerdict(serial, chunked, values.bound);
  return {
    row,
    token,
    chunk: chunkOfToken(input.chunkBoundaries, token),
    serial,
    chunked,
    ...cellReadout(serial, chunked, input.precision, input.relFloor),
    masked: values.lossMask === 0,
    padding,
    overBound: !padding && verdict === BoundVerdict.over,
    unchecked: !padding && verdict === BoundVerdict.unchecked,
  };
}
