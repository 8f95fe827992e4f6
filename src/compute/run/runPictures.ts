/**
 * The run view's heatmap pictures, pooled in the run worker. A report's grids are transferred to
 * the page, so before they go each field's cells are measured here, once (|stored − reference|,
 * the one measure the run view draws), and what pooling needs is kept: the errors, which cells
 * are over their bound or lost by the reference, the loss mask. A field switch or a resize is
 * then one pooling pass here and a small grid sent back (512 samples of up to 16k tokens: about
 * 8 M cells pooled into the canvas's bins), never the batch measured on the page.
 */
import * as Comlink from "comlink";
import { type PictureAsk, type PooledPicture, pictureBuffers, poolErrors } from "../heatmap/picture";
import { type CellErrors, cellErrors } from "../playground/cellErrors";
import type { RunGrid } from "./runGrid";

/** The one measure kept: the run view colours |stored − reference| (abs); ulp would count float32 steps. */
const METRIC = "abs";
const PRECISION = "float32";

interface KeptField {
  rows: number;
  cols: number;
  lengths: Int32Array;
  lossMask: Uint8Array;
  hasBound: boolean;
  errors: CellErrors;
}

let kept = new Map<number, KeptField>();
let nextId = 1;

/**
 * Measures each grid of a report and keeps what its pictures need, dropping the last report's;
 * each grid is given the id its pictures are asked by (`pictureId`). Call before the grids are
 * transferred.
 */
export function keepRunPictures(grids: Record<string, RunGrid | null>): void {
  kept = new Map();
  for (const grid of Object.values(grids)) {
    if (!grid) continue;
    const { rows, cols, lengths, reference, actual, bound, lossMask } = grid;
    const errors = cellErrors({
      rows,
      cols,
      lengths,
      reference,
      actual,
      bound: bound ?? undefined,
      metric: METRIC,
      precision: PRECISION,
    });
    const id = nextId++;
    kept.set(id, {
      rows,
      cols,
      lengths: lengths.slice(),
      lossMask: lossMask.slice(),
      hasBound: bound !== null,
      errors,
    });
    grid.pictureId = id;
  }
}

/** The pooled picture of a kept grid, transferred; null once a newer report replaced it. */
export function runPicture(id: number, ask: PictureAsk): PooledPicture | null {
  const field = kept.get(id);
  if (!field) return null;
  if (ask.metric !== METRIC) throw new Error(`the run view's heatmap is measured in ${METRIC}, not ${ask.metric}`);
  const picture = poolErrors(field.errors, field, ask);
  return Comlink.transfer(picture, pictureBuffers(picture));
}
