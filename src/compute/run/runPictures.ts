/**
 * The run view's heatmap, drawn from the run worker. Three padded float64 grids were 600 MB at
 * 512 × 16k, handed to the page whole (its renderer peaked at 1.1–1.3 GB); the page now holds each
 * field's shape (GridInfo) and asks here for what it draws: a pooled picture (a few thousand bins)
 * and the values of the one cell under its pointer. Neither the grids nor their measured cells are
 * kept: a picture measures each sample's row (|stored − reference|, the one measure the run view
 * draws) straight off what slime stored and the replay's reference and bound, as it pools it, into
 * the bins the padded grid's cells would fall in. Kept measured, the three fields were 240 MB more.
 */
import type { FloatArray, ReplayResult } from "../../core";
import type { UnderstoodDump } from "../../io/slimeDump";
import { type CellValues, colourPicture, type PictureAsk, type PooledPicture, sameAsk } from "../heatmap/picture";
import { type CellErrors, measureCells, relFloor } from "../playground/cellErrors";
import { type PoolRow, poolRowByRow } from "../playground/pooling";
import { type GridField, type GridInfo, gridFields, klReplayed, type ReplayedRows } from "./runGrid";

/** The one measure kept: the run view colours |stored − reference| (abs); ulp would count float32 steps. */
const METRIC = "abs";
const PRECISION = "float32";

/** One sample's sides of a field, as the padded grid would hold them (absent: zeros there). */
interface FieldRow {
  actual?: FloatArray;
  reference?: FloatArray;
  bound?: FloatArray;
  lossMask: FloatArray;
}

interface KeptField {
  rows: number;
  cols: number;
  lengths: Int32Array;
  hasBound: boolean;
  /**
   * The relative error's floor of the whole field, as cellErrors gives the padded grid (the readout's):
   * measured in the pass that pools the field's first picture (null until then), where each row is
   * read anyway (the KL's rows are made again on each read).
   */
  relFloor: number | null;
  row(b: number): FieldRow;
  /** A picture pooled before the page asked for it (poolOthersLater), until it is sent. */
  pooled?: { ask: PictureAsk; picture: PooledPicture };
  /** The ask whose picture was sent to the page, which keeps it (RunClient): not pooled again unless asked. */
  sent?: PictureAsk;
}

/** Each field's shape and picture id (null: no such field for this replay); what the page holds. */
export type RunGrids = Record<GridField, GridInfo | null>;

let kept = new Map<number, KeptField>();
let nextId = 1;
/** Whether a picture pools every kept field at once (rows read through a windowed replay: each pass replays). */
let poolTogether = false;

/**
 * Measures each field of a replay and keeps what its pictures and readouts need, dropping the last
 * report's first; `replayed`: the replay's rows read once (replayedRows). The stored values and the
 * replay's rows are read where they lie, not copied: the dump and the replay stay in the worker.
 */
export function keepRunPictures(
  dump: UnderstoodDump,
  replay: ReplayResult,
  replayed: ReplayedRows[] | null,
  /** The rows are read through a windowed replay (windowedRows): one pass pools every field's picture. */
  together = false,
): RunGrids {
  kept = new Map();
  poolTogether = together;
  const grids: RunGrids = { advantages: null, returns: null, kl: null };
  if (!replay.ok || !replayed) return grids;
  const rows = dump.samples.length;
  const cols = dump.samples.reduce((max, s) => Math.max(max, s.responseLength), 0);
  const lengths = Int32Array.from(dump.samples, (s) => s.responseLength);
  for (const field of gridFields(dump, replay)) {
    const recomputed = field !== "kl" || klReplayed(dump, replay);
    const hasBound = field !== "kl";
    const row = (b: number): FieldRow => {
      // Bounds first: a window replayed for them keeps its reference (windowedRows).
      const bound = field !== "kl" ? replayed[b].bounds[field] : undefined;
      return {
        actual: dump.samples[b][field],
        reference: recomputed ? replayed[b].reference[field] : undefined,
        bound,
        lossMask: dump.samples[b].lossMask,
      };
    };
    const id = nextId++;
    kept.set(id, { rows, cols, lengths, hasBound, relFloor: null, row });
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
 * The padded grid's picture, pooled one sample's row at a time: each row is laid into float64
 * scratch rows as the grid would hold it (float32 widened, zeros where a side is absent), measured
 * as cellErrors measures the grid, and pooled (poolByMax's `row`) before the next is laid. Rows are
 * added in order (`add`), so that several fields can be pooled in one pass over the samples.
 */
function fieldPooling(
  field: KeptField,
  ask: Pick<PictureAsk, "maxBinsX" | "maxBinsY" | "colourRow">,
): { add(b: number): void; finish(): PooledPicture } {
  const { rows, cols, lengths, hasBound } = field;
  const sides = {
    reference: new Float64Array(cols),
    actual: new Float64Array(cols),
    bound: hasBound ? new Float64Array(cols) : undefined,
  };
  const measured: CellErrors = {
    error: new Float64Array(cols),
    overBound: new Uint8Array(cols),
    lost: new Uint8Array(cols),
    unchecked: new Uint8Array(cols),
    // Not read by the one measure kept (abs); the floor itself is the pass's own, below.
    relFloor: field.relFloor ?? 0,
  };
  const lossMask = new Uint8Array(cols);
  const pooled: PoolRow = {
    base: 0,
    ...measured,
    overBound: hasBound ? measured.overBound : undefined,
    unchecked: hasBound ? measured.unchecked : undefined,
    lossMask,
  };
  // The padded grid's floor is its largest reference's: the largest of the rows' (padding adds zeros).
  let floor = relFloor([], PRECISION);
  let floored = 0;
  const row = (b: number): PoolRow => {
    const from = field.row(b);
    if (field.relFloor === null && from.reference) floor = Math.max(floor, relFloor(from.reference, PRECISION));
    floored += 1;
    const length = Math.min(cols, Math.max(0, lengths[b]));
    layRow(sides.reference, from.reference, length);
    layRow(sides.actual, from.actual, length);
    if (sides.bound) layRow(sides.bound, from.bound, length);
    measured.overBound.fill(0, 0, length);
    measured.unchecked.fill(0, 0, length);
    measured.lost.fill(0, 0, length);
    measureCells(measured, 0, sides, 0, length, METRIC, PRECISION);
    // As a Uint8Array.set of the sample's mask gives the grid's bytes.
    const mask = from.lossMask;
    const n = Math.min(length, mask.length);
    lossMask.set(n < mask.length ? mask.subarray(0, n) : mask);
    lossMask.fill(0, n, length);
    return pooled;
  };
  const pooling = poolRowByRow({
    rows,
    cols,
    lengths,
    error: measured.error,
    row,
    maxBinsX: ask.maxBinsX,
    maxBinsY: ask.maxBinsY,
  });
  const finish = () => {
    const grid = pooling.finish();
    if (field.relFloor === null) field.relFloor = floored === rows ? floor : fieldFloor(field);
    return colourPicture(grid, field.relFloor, ask.colourRow);
  };
  return { add: pooling.add, finish };
}

/** Each field's picture for one ask, pooled in one pass over the samples (each sample's rows read once). */
function poolFields(fields: KeptField[], ask: PictureAsk): PooledPicture[] {
  const poolings = fields.map((field) => fieldPooling(field, ask));
  const rows = fields[0]?.rows ?? 0;
  for (let b = 0; b < rows; b++) for (const pooling of poolings) pooling.add(b);
  return fields.map((field, k) => {
    const picture = poolings[k].finish();
    field.pooled = { ask, picture };
    return picture;
  });
}

/** The field's floor in a pass of its own, where pooling did not read every row. */
function fieldFloor(field: KeptField): number {
  let floor = relFloor([], PRECISION);
  for (let b = 0; b < field.rows; b++) {
    const reference = field.row(b).reference;
    if (reference) floor = Math.max(floor, relFloor(reference, PRECISION));
  }
  return floor;
}

/**
 * The pooled picture of a kept field, to be transferred to the page, which keeps it (RunClient): the
 * worker forgets it. Cloned, a 512-row picture (11 MB at 1,100 bins a row) cost the worker 80–100 ms
 * and the page's main thread a 40–80 ms task on every field switch. Null once a newer report replaced
 * the field. Then the report's other fields are pooled for the same size, a field a task, so a field
 * switch finds its picture made (a pass over 4 M tokens is 0.1–0.3 s of CPU).
 */
export function runPicture(id: number, ask: PictureAsk): PooledPicture | null {
  const field = kept.get(id);
  if (!field) return null;
  if (ask.metric !== METRIC) throw new Error(`the run view's heatmap is measured in ${METRIC}, not ${ask.metric}`);
  const picture = pictureOf(field, ask);
  field.pooled = undefined;
  field.sent = ask;
  poolOthersLater(ask);
  return picture;
}

function pictureOf(field: KeptField, ask: PictureAsk): PooledPicture {
  if (field.pooled && sameAsk(field.pooled.ask, ask)) return field.pooled.picture;
  // Read through a windowed replay, a pass over the rows replays the batch: the fields the page
  // has no picture of for this ask are pooled in the same pass.
  const others = poolTogether ? [...kept.values()].filter((f) => f !== field && !madeFor(f, ask)) : [];
  return poolFields([field, ...others], ask)[0];
}

/** Whether the field's picture for this ask is made, or already with the page. */
function madeFor(field: KeptField, ask: PictureAsk): boolean {
  return (
    (field.pooled !== undefined && sameAsk(field.pooled.ask, ask)) ||
    (field.sent !== undefined && sameAsk(field.sent, ask))
  );
}

let later: ReturnType<typeof setTimeout> | undefined;

/** The next kept field without a picture of this size, pooled in a task of its own (a newer ask goes first). */
function poolOthersLater(ask: PictureAsk): void {
  clearTimeout(later);
  const next = [...kept.values()].find((f) => !madeFor(f, ask));
  if (!next) return;
  later = setTimeout(() => {
    if (![...kept.values()].includes(next)) return;
    pictureOf(next, ask);
    poolOthersLater(ask);
  }, 0);
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
    lossMask: maskByte(sides.lossMask, token),
  };
}

const BYTE = new Uint8Array(1);

/** The sample's loss mask at a token as the grid's byte holds it (a Uint8Array's conversion; 0 past its end). */
function maskByte(mask: FloatArray, token: number): number {
  BYTE[0] = token < mask.length ? mask[token] : 0;
  return BYTE[0];
}

/** The first `length` places of `into` as the padded grid's row: `from` widened, zeros past its end. */
function layRow(into: Float64Array, from: FloatArray | undefined, length: number): void {
  const n = Math.min(length, from?.length ?? 0);
  if (from && n > 0) into.set(n < from.length ? from.subarray(0, n) : from);
  into.fill(0, n, length);
}
