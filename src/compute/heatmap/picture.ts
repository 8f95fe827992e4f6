/**
 * The heatmap's pooled picture, computed where its data lives: the playground worker for a run's
 * result, the run worker for a dump's fields, or the main thread for a batch it computed itself (a
 * teaching-size result, drawn in the frame of the edit). The page asks a picture source for the
 * bins its canvas has room for and gets back the pooled grid, a few thousand bins, never the batch.
 */
import { type CellErrors, cellErrors, type ErrorMetric, type Precision } from "../playground/cellErrors";
import { type PooledGrid, poolByMax } from "../playground/pooling";

/** What the heatmap asks for: its room in bins, and the error measure it colours. */
export interface PictureAsk {
  maxBinsX: number;
  maxBinsY: number;
  metric: ErrorMetric;
  precision: Precision;
}

/** The pooled grid, and the relative floor its cells were measured with (the readout uses it too). */
export interface PooledPicture {
  grid: PooledGrid;
  relFloor: number;
}

/**
 * Where a heatmap gets its picture. `here`: the data is on this thread and small, so the picture is
 * pooled in the render that asks (drawn in the same frame). `worker`: asked of the worker that owns
 * the data; null when that worker holds newer data now (a newer result replaced it).
 */
export type PictureSource =
  | { at: "here"; picture(ask: PictureAsk): PooledPicture }
  | { at: "worker"; picture(ask: PictureAsk): Promise<PooledPicture | null> };

/** The padded batch a picture is pooled from. */
export interface PictureData {
  rows: number;
  cols: number;
  lengths: ArrayLike<number>;
  reference: ArrayLike<number>;
  actual: ArrayLike<number>;
  bound?: ArrayLike<number>;
  /** Row-major loss mask, 0 = masked. */
  lossMask?: ArrayLike<number>;
}

/** Pools measured cells into the bins asked for. */
export function poolErrors(
  errors: CellErrors,
  data: { rows: number; cols: number; lengths: ArrayLike<number>; lossMask?: ArrayLike<number>; hasBound: boolean },
  ask: Pick<PictureAsk, "maxBinsX" | "maxBinsY">,
): PooledPicture {
  const grid = poolByMax({
    rows: data.rows,
    cols: data.cols,
    lengths: data.lengths,
    error: errors.error,
    lost: errors.lost,
    overBound: data.hasBound ? errors.overBound : undefined,
    lossMask: data.lossMask,
    maxBinsX: ask.maxBinsX,
    maxBinsY: ask.maxBinsY,
  });
  return { grid, relFloor: errors.relFloor };
}

/**
 * The pictures of one batch: its cells measured once per error measure (the last one kept), then
 * pooled for each size asked, so a resize or a new row height costs one pooling pass.
 */
export class BatchPictures {
  private measured: { metric: ErrorMetric; precision: Precision; errors: CellErrors } | null = null;

  constructor(readonly data: PictureData) {}

  picture(ask: PictureAsk): PooledPicture {
    const { data } = this;
    let m = this.measured;
    if (!m || m.metric !== ask.metric || m.precision !== ask.precision) {
      const errors = cellErrors({ ...data, metric: ask.metric, precision: ask.precision });
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

/** The typed arrays of a picture, to transfer it out of a worker. */
export function pictureBuffers(picture: PooledPicture): ArrayBuffer[] {
  const g = picture.grid;
  return [g.colStart, g.rowStart, g.value, g.kind, g.masked, g.overBound, g.worst].map((a) => a.buffer as ArrayBuffer);
}
