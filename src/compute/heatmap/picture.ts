/**
 * The heatmap's pooled picture, computed where its data lives: the playground worker for a run's
 * result, the run worker for a dump's fields, or the main thread for a batch it computed itself (a
 * teaching-size result, drawn in the frame of the edit). The page asks a picture source for the
 * bins its canvas has room for and gets back the pooled grid, a few thousand bins, never the batch.
 */
import {
  type CellErrorInput,
  type CellErrors,
  cellErrors,
  type ErrorMetric,
  type Precision,
} from "../playground/cellErrors";
import { BinKind, type PooledGrid, poolByMax, pooledDomain, worstBin } from "../playground/pooling";
import { colourOf, type DecadeScale, decadeScale, NON_FINITE_COLOUR, PADDING_COLOUR, type Rgb } from "./colourScale";

/** What the heatmap asks for: its room in bins, and the error measure it colours. */
export interface PictureAsk {
  maxBinsX: number;
  maxBinsY: number;
  metric: ErrorMetric;
  precision: Precision;
  /** The row whose bins set the colour domain (the heatmap's row scope); −1: the whole batch. */
  colourRow: number;
}

/** Which kinds of bin a picture holds: the legend lists only those. */
export interface PicturePresent {
  nonFinite: boolean;
  chunkedOnlyNonFinite: boolean;
  padding: boolean;
  masked: boolean;
  overBound: boolean;
  /** Some cell's bound is NaN or ±Inf: it checks nothing there. */
  unchecked: boolean;
}

/**
 * The pooled grid coloured: everything the page needs to draw the picture and its legend, so it
 * never loops over the bins (half a million of them at 512 rows) itself.
 */
export interface PooledPicture {
  grid: PooledGrid;
  /** The relative floor the cells were measured with (the readout uses it too). */
  relFloor: number;
  /** Smallest positive and largest finite pooled value of the colour scope. */
  domain: { min: number; max: number };
  scale: DecadeScale;
  /** Bin of the largest finite error (worstBin), −1 if none. */
  worst: number;
  present: PicturePresent;
  /** One RGBA pixel per bin, row-major binsY × binsX. */
  pixels: Uint8ClampedArray<ArrayBuffer>;
  /**
   * The pixels as a bitmap a worker made (withBitmap), which the page only scales onto its canvas:
   * put there from the pixels, a 512-row picture's 570,000 pixels were a copy on the page's thread
   * in the task that draws the heatmap. Absent where the picture is made on the page.
   */
  bitmap?: ImageBitmap;
}

/**
 * Where a heatmap gets its picture. `here`: the data is on this thread and small, so the picture is
 * pooled in the render that asks (drawn in the same frame). `worker`: asked of the worker that owns
 * the data; null when that worker holds newer data now (a newer result replaced it).
 */
export type PictureSource =
  | { at: "here"; picture(ask: PictureAsk): PooledPicture }
  | {
      at: "worker";
      picture(ask: PictureAsk): Promise<PooledPicture | null>;
      /** A picture the worker sent with the data, for the ask it expected (drawn at once when it matches). */
      ready?(ask: PictureAsk): PooledPicture | null;
    };

/** One cell's values, for a readout asked of the worker that holds the batch (zeros in the padding). */
export interface CellValues {
  reference: number;
  actual: number;
  /** The cell's bound; undefined where the batch has none. */
  bound: number | undefined;
  lossMask: number;
}

/** A readout's cell asked of the worker that holds the batch; null once it holds newer data. */
export type CellLookup = (row: number, token: number) => Promise<CellValues | null>;

/** A picture a worker pooled before it was asked, with the ask it answers. */
export interface SentPicture<Output extends string = string> {
  output: Output;
  ask: PictureAsk;
  picture: PooledPicture;
}

/** Whether two asks ask for the same picture. */
export function sameAsk(a: PictureAsk, b: PictureAsk): boolean {
  return (
    a.maxBinsX === b.maxBinsX &&
    a.maxBinsY === b.maxBinsY &&
    a.metric === b.metric &&
    a.precision === b.precision &&
    a.colourRow === b.colourRow
  );
}

/** The padded batch a picture is pooled from: what cellErrors measures, and the loss mask. */
export interface PictureData extends Omit<CellErrorInput, "metric" | "precision"> {
  /** Row-major loss mask, 0 = masked. */
  lossMask?: ArrayLike<number>;
}

/** Pools measured cells into the bins asked for, and colours the bins. */
export function poolErrors(
  errors: CellErrors,
  data: { rows: number; cols: number; lengths: ArrayLike<number>; lossMask?: ArrayLike<number>; hasBound: boolean },
  ask: Pick<PictureAsk, "maxBinsX" | "maxBinsY" | "colourRow">,
): PooledPicture {
  const grid = poolByMax({
    rows: data.rows,
    cols: data.cols,
    lengths: data.lengths,
    error: errors.error,
    lost: errors.lost,
    overBound: data.hasBound ? errors.overBound : undefined,
    unchecked: data.hasBound ? errors.unchecked : undefined,
    lossMask: data.lossMask,
    maxBinsX: ask.maxBinsX,
    maxBinsY: ask.maxBinsY,
  });
  return colourPicture(grid, errors.relFloor, ask.colourRow);
}

/** The bin rows of a row scope: the one holding the row. */
export function binRowsOf(grid: PooledGrid, row: number): [number, number] {
  let by = 0;
  while (by + 1 < grid.binsY && grid.rowStart[by + 1] <= row) by++;
  return [by, by + 1];
}

/** The grid's domain, colour scale, worst bin, kinds present and pixels. */
export function colourPicture(grid: PooledGrid, relFloor: number, colourRow: number): PooledPicture {
  const domain = pooledDomain(grid, colourRow >= 0 ? binRowsOf(grid, colourRow) : undefined);
  const scale = decadeScale(domain.min, domain.max);
  const present: PicturePresent = {
    nonFinite: false,
    chunkedOnlyNonFinite: false,
    padding: false,
    masked: false,
    overBound: false,
    unchecked: false,
  };
  for (let b = 0; b < grid.kind.length; b++) {
    const k = grid.kind[b];
    if (k === BinKind.nonFinite) present.nonFinite = true;
    else if (k === BinKind.chunkedOnlyNonFinite) present.chunkedOnlyNonFinite = true;
    else if (k === BinKind.padding) present.padding = true;
    if (grid.masked[b]) present.masked = true;
    if (grid.overBound[b]) present.overBound = true;
    if (grid.unchecked[b]) present.unchecked = true;
  }
  return { grid, relFloor, domain, scale, worst: worstBin(grid), present, pixels: paintBins(grid, scale) };
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** An opaque colour as the 32-bit word of its RGBA bytes in memory. */
function word([r, g, b]: Rgb): number {
  return LITTLE_ENDIAN
    ? ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0
    : ((r << 24) | (g << 16) | (b << 8) | 255) >>> 0;
}

/** RGBA pixels of the pooled grid, one per bin, a word per pixel (the ImageData drawn scaled up). */
export function paintBins(grid: PooledGrid, scale: DecadeScale): Uint8ClampedArray<ArrayBuffer> {
  const pixels = new Uint8ClampedArray(grid.binsX * grid.binsY * 4);
  const words = new Uint32Array(pixels.buffer);
  const padding = word(PADDING_COLOUR);
  const lost = word(NON_FINITE_COLOUR);
  const zero = word(colourOf(scale, 0));
  const swatches = scale.swatches.map(word);
  const { edges } = scale;
  for (let b = 0; b < grid.kind.length; b++) {
    const kind = grid.kind[b];
    if (kind === BinKind.padding) words[b] = padding;
    else if (kind !== BinKind.data) words[b] = lost;
    else {
      const v = grid.value[b];
      if (v === 0) words[b] = zero;
      else {
        let k = 0;
        while (k < edges.length && v >= edges[k]) k++;
        words[b] = swatches[k];
      }
    }
  }
  return pixels;
}

/**
 * The pictures of one batch: its cells measured once per error measure (the last one kept), then
 * pooled for each size asked, so a resize or a new row height costs one pooling pass.
 */
export class BatchPictures {
  private measured: { metric: ErrorMetric; precision: Precision; errors: CellErrors } | null = null;

  /**
   * `ready`: arrays made before the actual side was known (emptyCellErrors), for a first measure in
   * that precision: measuring then neither allocates nor passes over the reference for its floor.
   */
  constructor(
    readonly data: PictureData,
    private ready?: { precision: Precision; errors: CellErrors },
  ) {}

  /** The arrays of the measure kept (a newer batch may reuse them once this one is dropped). */
  get measuredErrors(): CellErrors | null {
    return this.measured?.errors ?? null;
  }

  picture(ask: PictureAsk): PooledPicture {
    const { data } = this;
    let m = this.measured;
    if (!m || m.metric !== ask.metric || m.precision !== ask.precision) {
      const into = this.ready?.precision === ask.precision ? this.ready.errors : undefined;
      this.ready = undefined;
      const errors = cellErrors({ ...data, metric: ask.metric, precision: ask.precision }, into);
      m = { metric: ask.metric, precision: ask.precision, errors };
      this.measured = m;
    }
    return poolErrors(m.errors, { ...data, hasBound: data.bound !== undefined }, ask);
  }
}

/** A source for data on this thread (pooled in the render that asks). */
export function hereSource(data: PictureData): PictureSource {
  const pictures = new BatchPictures(data);
  return { at: "here", picture: (ask) => pictures.picture(ask) };
}

/**
 * The picture with its pixels as a bitmap (where this thread can make one: a worker or a page, not
 * Node), for a worker to transfer (pictureTransfers) so the page draws it without a copy of its own.
 */
export async function withBitmap(picture: PooledPicture): Promise<PooledPicture> {
  const { binsX, binsY } = picture.grid;
  if (typeof createImageBitmap !== "function" || typeof ImageData !== "function" || binsX === 0 || binsY === 0)
    return picture;
  const bitmap = await createImageBitmap(new ImageData(picture.pixels, binsX, binsY));
  return { ...picture, bitmap };
}

/** The buffers of a picture and its bitmap, to transfer it out of a worker. */
export function pictureTransfers(picture: PooledPicture): Transferable[] {
  return picture.bitmap ? [...pictureBuffers(picture), picture.bitmap] : pictureBuffers(picture);
}

/** The typed arrays of a picture, to transfer it out of a worker. */
export function pictureBuffers(picture: PooledPicture): ArrayBuffer[] {
  const g = picture.grid;
  return [g.colStart, g.rowStart, g.value, g.kind, g.masked, g.overBound, g.unchecked, g.worst, picture.pixels].map(
    (a) => a.buffer as ArrayBuffer,
  );
}
