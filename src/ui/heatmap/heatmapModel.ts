import {
  type CellErrors,
  cellReadout,
  type ErrorMetric,
  type Precision,
  type SideNames,
} from "../../compute/playground/cellErrors";
import { BinKind, type PooledGrid, poolByMax, pooledDomain, worstBin } from "../../compute/playground/pooling";
import { chunkOfToken } from "../charts/chunkBoundaries";
import { type DecadeScale, decadeScale } from "./colourScale";
import type { HeatmapCell } from "./heatmapCell";
import { type LegendModel, legendModel } from "./legendModel";

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

export interface HeatmapModelInput {
  rows: number;
  cols: number;
  lengths: ArrayLike<number>;
  errors: CellErrors;
  /** The serial reference: non-finite there too means both scans lost the cell. */
  reference?: ArrayLike<number>;
  lossMask?: ArrayLike<number>;
  hasBound: boolean;
  metric: ErrorMetric;
  precision: Precision;
  maxBinsX: number;
  maxBinsY: number;
  scope: ColourScope;
  selectedRow: number;
  /** What is compared (default: the chunked scan against the serial reference). */
  sides?: SideNames;
}

export function pooledGrid(input: HeatmapModelInput): PooledGrid {
  return poolByMax({
    rows: input.rows,
    cols: input.cols,
    lengths: input.lengths,
    error: input.errors.error,
    reference: input.reference,
    overBound: input.hasBound ? input.errors.overBound : undefined,
    lossMask: input.lossMask,
    maxBinsX: input.maxBinsX,
    maxBinsY: input.maxBinsY,
  });
}

export function heatmapModel(input: HeatmapModelInput, grid: PooledGrid): HeatmapModel {
  let binRows: [number, number] | undefined;
  if (input.scope === "row") {
    const by = Math.max(
      0,
      Array.from(grid.rowStart).findLastIndex((s) => s <= input.selectedRow),
    );
    binRows = [Math.min(by, grid.binsY - 1), Math.min(by, grid.binsY - 1) + 1];
  }
  const domain = pooledDomain(grid, binRows);
  const scale = decadeScale(domain.min, domain.max);
  const present = { nonFinite: false, chunkedOnlyNonFinite: false, padding: false, masked: false, overBound: false };
  for (let b = 0; b < grid.kind.length; b++) {
    if (grid.kind[b] === BinKind.nonFinite) present.nonFinite = true;
    if (grid.kind[b] === BinKind.chunkedOnlyNonFinite) present.chunkedOnlyNonFinite = true;
    if (grid.kind[b] === BinKind.padding) present.padding = true;
    if (grid.masked[b]) present.masked = true;
    if (grid.overBound[b]) present.overBound = true;
  }
  const legend = legendModel({
    metric: input.metric,
    precision: input.precision,
    scale,
    domain,
    scope: input.scope === "row" ? `row ${input.selectedRow}` : "batch",
    grid,
    relFloor: input.errors.relFloor,
    present,
    hasBound: input.hasBound,
    sides: input.sides,
  });
  return { grid, scale, domain, legend, worst: worstBin(grid) };
}

/** The hover readout of one cell, in all three measures. */
export function heatmapCell(
  input: {
    cols: number;
    lengths: ArrayLike<number>;
    reference: ArrayLike<number>;
    actual: ArrayLike<number>;
    lossMask?: ArrayLike<number>;
    chunkBoundaries: readonly number[];
    precision: Precision;
    errors: CellErrors;
  },
  row: number,
  token: number,
): HeatmapCell {
  const i = row * input.cols + token;
  const serial = input.reference[i];
  const chunked = input.actual[i];
  const padding = token >= (input.lengths[row] ?? input.cols);
  return {
    row,
    token,
    chunk: chunkOfToken(input.chunkBoundaries, token),
    serial,
    chunked,
    ...cellReadout(serial, chunked, input.precision, input.errors.relFloor),
    masked: input.lossMask?.[i] === 0,
    padding,
    overBound: !padding && input.errors.overBound[i] === 1,
  };
}
