import {
  cellOverBound,
  cellReadout,
  type ErrorMetric,
  type Precision,
  type SideNames,
} from "../../compute/playground/cellErrors";
import { BinKind, type PooledGrid, pooledDomain, worstBin } from "../../compute/playground/pooling";
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

/** What the legend says beside the pooled grid (the grid itself comes from a picture source). */
export interface HeatmapModelInput {
  hasBound: boolean;
  metric: ErrorMetric;
  precision: Precision;
  /** The relative error's floor the cells were measured with (see relFloor). */
  relFloor: number;
  scope: ColourScope;
  selectedRow: number;
  /** What is compared (default: the chunked scan against the serial reference). */
  sides?: SideNames;
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
    relFloor: input.relFloor,
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
    bound?: ArrayLike<number>;
    chunkBoundaries: readonly number[];
    precision: Precision;
    relFloor: number;
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
    ...cellReadout(serial, chunked, input.precision, input.relFloor),
    masked: input.lossMask?.[i] === 0,
    padding,
    overBound: !padding && cellOverBound(serial, chunked, input.bound?.[i]),
  };
}
