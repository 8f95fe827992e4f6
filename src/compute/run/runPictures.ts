/**
 * The run view's heatmap, kept in the run worker. Each field's cells are measured here once
 * (|stored − reference|, the one measure the run view draws) straight off the samples' own rows,
 * what slime stored and the replay's reference and bound, into the places a padded `[B, max length]`
 * grid would give them; the grid itself is never built. Three padded float64 grids were 600 MB at
 * 512 × 16k, handed to the page whole (its renderer peaked at 1.1 GB); the page now holds each
 * field's shape (GridInfo) and asks here for what it draws: a pooled picture (a few thousand bins)
 * and the values of the one cell under its pointer.
 */
import * as Comlink from "comlink";
import type { FloatArray, ReplayResult } from "../../core";
import type { UnderstoodDump } from "../../io/slimeDump";
import { type CellValues, type PictureAsk, type PooledPicture, pictureBuffers, poolErrors } from "../heatmap/picture";
import { type CellErrors, measureCells, relFloor } from "../playground/cellErrors";
import { type GridField, type GridInfo, gridFields, klReplayed, type ReplayedRows } from "./runGrid";

/** The one measure kept: the run view colours |stored − reference| (abs); ulp would count float32 steps. */
const METRIC = "abs";
const PRECISION = "float32";

/** One sample's sides of a field, as the padded grid would hold them (absent: zeros there). */
interface FieldRow {
  actual?: FloatArray;
  reference?: FloatArray;
  bound?: FloatArray;
}

interface KeptField {
  rows: number;
  cols: number;
  lengths: Int32Array;
  /** Padded like the grid's, shared by a report's fields (the loss mask is the sample's, whatever the field). */
  lossMask: Uint8Array;
  hasBound: boolean;
  errors: CellErrors;
  row(b: number): FieldRow;
}

/** Each field's shape and picture id (null: no such field for this replay); what the page holds. */
export type RunGrids = Record<GridField, GridInfo | null>;

let kept = new Map<number, KeptField>();
let nextId = 1;

/**
 * Measures each field of a replay and keeps what its pictures and readouts need, dropping the last
 * report's first; `replayed`: the replay's rows read once (replayedRows). The stored values and the
 * replay's rows are read where they lie, not copied: the dump and the replay stay in the worker.
 */
export function keepRunPictures(dump: UnderstoodDump, replay: ReplayResult, replayed: ReplayedRows[] | null): RunGrids {
  kept = new Map();
  const grids: RunGrids = { advantages: null, returns: null, kl: null };
  if (!replay.ok || !replayed) return grids;
  const fields = gridFields(dump, replay);
  if (fields.length === 0) return grids;
  const rows = dump.samples.length;
  const cols = dump.samples.reduce((max, s) => Math.max(max, s.responseLength), 0);
  const lengths = Int32Array.from(dump.samples, (s) => s.responseLength);
  const lossMask = new Uint8Array(rows * cols);
  dump.samples.forEach((s, b) => {
    lossMask.set(s.lossMask, b * cols);
  });
  for (const field of fields) {
    const recomputed = field !== "kl" || klReplayed(dump, replay);
    const hasBound = field !== "kl";
    const row = (b: number): FieldRow => ({
      actual: dump.samples[b][field],
      reference: recomputed ? replayed[b].reference[field] : undefined,
      bound: field !== "kl" ? replayed[b].bounds[field] : undefined,
    });
    const errors = measureRows(rows, cols, lengths, hasBound, row);
    const id = nextId++;
    kept.set(id, { rows, cols, lengths, lossMask, hasBound, errors, row });
    grids[field] = {
      field,
      referenceIs: recomputed ? "replayed" : "zero",
      rows,
      cols,
      lengths: lengths.slice(),
      hasBound,
      pictureId: id,
    };
  }
  return grids;
}

/**
 * cellErrors of the padded grid, one sample's row at a time: each row is laid into float64 scratch
 * rows as the grid would hold it (float32 widened, zeros where a side is absent), then measured into
 * its padded place. The relative floor is the batch's, as the grid's: the largest of the rows'.
 */
function measureRows(
  rows: number,
  cols: number,
  lengths: Int32Array,
  hasBound: boolean,
  row: (b: number) => FieldRow,
): CellErrors {
  let floor = relFloor([], PRECISION);
  for (let b = 0; b < rows; b++) {
    const reference = row(b).reference;
    if (reference) floor = Math.max(floor, relFloor(reference, PRECISION));
  }
  const n = rows * cols;
  const out: CellErrors = {
    error: new Float64Array(n),
    overBound: new Uint8Array(n),
    lost: new Uint8Array(n),
    relFloor: floor,
  };
  const scratch = {
    reference: new Float64Array(cols),
    actual: new Float64Array(cols),
    bound: hasBound ? new Float64Array(cols) : undefined,
  };
  for (let b = 0; b < rows; b++) {
    const sides = row(b);
    const length = Math.min(cols, Math.max(0, lengths[b]));
    layRow(scratch.reference, sides.reference, length);
    layRow(scratch.actual, sides.actual, length);
    if (scratch.bound) layRow(scratch.bound, sides.bound, length);
    measureCells(out, b * cols, scratch, 0, length, METRIC, PRECISION);
  }
  return out;
}

/** The first `length` places of `into` as the padded grid's row: `from` widened, zeros past its end. */
function layRow(into: Float64Array, from: FloatArray | undefined, length: number): void {
  const n = Math.min(length, from?.length ?? 0);
  if (from && n > 0) into.set(n < from.length ? from.subarray(0, n) : from);
  into.fill(0, n, length);
}

/** The pooled picture of a kept field, transferred; null once a newer report replaced it. */
export function runPicture(id: number, ask: PictureAsk): PooledPicture | null {
  const field = kept.get(id);
  if (!field) return null;
  if (ask.metric !== METRIC) throw new Error(`the run view's heatmap is measured in ${METRIC}, not ${ask.metric}`);
  const picture = poolErrors(field.errors, field, ask);
  return Comlink.transfer(picture, pictureBuffers(picture));
}

/** One cell of a kept field, read off the sample's rows; null once a newer report replaced it, or off the grid. */
export function runCell(id: number, row: number, token: number): CellValues | null {
  const field = kept.get(id);
  if (!field || !(row >= 0 && row < field.rows && token >= 0 && token < field.cols)) return null;
  const sides = field.row(row);
  const at = (values: FloatArray | undefined) => (values && token < values.length ? values[token] : 0);
  return {
    reference: at(sides.reference),
    actual: at(sides.actual),
    bound: field.hasBound ? at(sides.bound) : undefined,
    lossMask: field.lossMask[row * field.cols + token],
  };
}
