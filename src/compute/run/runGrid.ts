import type { FloatArray, ReplayResult, SampleReplay } from "../../core";
import type { UnderstoodDump } from "../../io/slimeDump";

/** The fields the heatmap can show: the two outputs, and the KL the estimator read. */
export type GridField = "advantages" | "returns" | "kl";

/**
 * One stored field of every sample beside its float64 reference and bound, padded to `[B, max length]`.
 * The run worker never builds it (runPictures.ts measures the samples' own rows into the padded
 * places); it is the measure the tests hold the worker's pictures and readouts to.
 */
export interface RunGrid {
  field: GridField;
  /**
   * What `reference` is. `replayed`: the float64 replay (the outputs; the KL where the replay recomputed
   * it from the log-probs). `zero`: the KL was not recomputed (kl_coef 0, or no log-probs), so the
   * heatmap shows the stored KL itself, |kl − 0|.
   */
  referenceIs: "replayed" | "zero";
  rows: number;
  cols: number;
  lengths: Int32Array;
  /** What slime stored (float32 widened). */
  actual: Float64Array;
  reference: Float64Array;
  /** Per-token float32 bound; null for the KL, whose bound the replay judges but does not hand out per token. */
  bound: Float64Array | null;
  lossMask: Uint8Array;
}

/**
 * What the page holds of a field's grid: its shape and kind, never its batch-sized arrays (three
 * padded float64 grids are 600 MB at 512 × 16k). Its picture and each cell's values are asked of
 * the run worker by `pictureId` (runPictures.ts); a sample's rows come with its fields (sampleFields).
 */
export interface GridInfo {
  field: GridField;
  referenceIs: RunGrid["referenceIs"];
  rows: number;
  cols: number;
  lengths: Int32Array;
  /** Whether the field has a per-token bound (the outputs; not the KL). */
  hasBound: boolean;
  /** The id under which the run worker keeps this field's measured cells (runPictures.ts). */
  pictureId: number;
}

/** One sample's replayed rows, as read once off a replay. */
export type ReplayedRows = Pick<SampleReplay, "reference" | "bounds">;

/**
 * Each sample's reference and bounds read once: a windowed replay (the page's, as the CLI's) recomputes
 * them on every read, so the three grids and a sample's fields read these instead.
 */
export function replayedRows(
  replay: ReplayResult,
  /** Each sample's stored values (the dump's): ppo's returns are kept as its advantages plus these where they are. */
  values?: (i: number) => FloatArray | undefined,
): ReplayedRows[] | null {
  if (!replay.ok) return null;
  if (replay.lendRows) return copiedRows(replay, replay.lendRows, values);
  // Bounds first: a windowed replay replays a window for a sample's bounds and keeps its reference too.
  return replay.samples.map((s) => {
    const bounds = s.bounds;
    return { reference: s.reference, bounds };
  });
}

/**
 * Above this many response tokens a replay's rows are not kept (four float64 rows a token: 980 MB
 * at 30.6 M tokens, the 1.5 GB dump's) but read through the windowed replay each time (windowedRows).
 */
export const KEEP_ROWS_MAX_TOKENS = 1 << 23;

/**
 * Each sample's rows read through the windowed replay whenever asked, never kept: memory is a
 * window's, and each read replays the sample's window unless it was the last read (a pass over the
 * samples in order replays each window once). Read the bounds first: the window replayed for them
 * keeps its reference, where a reference read first replays it again for the bounds.
 */
export function windowedRows(replay: ReplayResult): ReplayedRows[] | null {
  if (!replay.ok) return null;
  return replay.samples.map((s) => ({
    get reference() {
      return s.reference;
    },
    get bounds() {
      return s.bounds;
    },
  }));
}

/**
 * The windowed replay's lent rows copied into 8 MB chunks, four rows a token (141 MB at ppo512): the
 * windows' own rows come from one reused arena, where read through the getters each window's eight
 * fresh rows a token left three as garbage. The KL's reference is not kept (35 MB more): a sample's
 * is made again when read (referenceKl), from its own tokens' log-probs.
 *
 * Where a sample's rows are what its raw advantages make them, checked here value by value, only the
 * raw row is kept (three rows a token, 106 MB at ppo512): its whitened advantages are whitened again
 * when read, by the replay's own operations (whitenAdvantages), and ppo's returns are `A + V`, its raw
 * advantages plus the stored values, as the replay adds them. A sample where either differs in one
 * bit keeps both rows. Such rows are made into one row per field, reused: read one before reading the
 * same field of another sample (every reader copies or reads at once).
 */
function copiedRows(
  replay: Extract<ReplayResult, { ok: true }>,
  lendRows: LendRows,
  values: ((i: number) => FloatArray | undefined) | undefined,
): ReplayedRows[] {
  const { samples, referenceKl, whitenAdvantages } = replay;
  let store = new Float64Array(0);
  let used = 0;
  const copy = (row: Float64Array) => {
    if (used + row.length > store.length) {
      // A chunk at a time, not the batch's rows in one allocation: the file's bytes go only at the
      // worker's next major collection, and one 141 MB allocation before it (a quiet machine's
      // verdict comes first) held both, 100 MB over; chunks give the collector its chances.
      store = new Float64Array(Math.max(STORE_CHUNK, row.length));
      used = 0;
    }
    const out = store.subarray(used, used + row.length);
    out.set(row);
    used += row.length;
    return out;
  };
  const made = { advantages: new Float64Array(0), returns: new Float64Array(0) };
  const madeRow = (field: "advantages" | "returns", length: number) => {
    if (made[field].length < length) made[field] = new Float64Array(length);
    return made[field].subarray(0, length);
  };
  const whitened = (raw: Float64Array) => {
    const out = madeRow("advantages", raw.length);
    whitenAdvantages?.(raw, out);
    return out;
  };
  const plusValues = (raw: Float64Array, v: FloatArray) => {
    const out = madeRow("returns", raw.length);
    for (let t = 0; t < raw.length; t++) out[t] = raw[t] + v[t];
    return out;
  };
  const out: ReplayedRows[] = new Array(samples.length);
  lendRows((i, { reference, bounds, rawAdvantages }) => {
    const v = values?.(i);
    const kept: Record<string, Float64Array> = {};
    const fields: PropertyDescriptorMap = {};
    if (
      whitenAdvantages &&
      v &&
      v.length === rawAdvantages.length &&
      sameBits(whitened(rawAdvantages), reference.advantages) &&
      sameBits(plusValues(rawAdvantages, v), reference.returns)
    ) {
      const raw = copy(rawAdvantages);
      fields.advantages = { get: () => whitened(raw), enumerable: true };
      fields.returns = { get: () => plusValues(raw, v), enumerable: true };
    } else {
      kept.advantages = copy(reference.advantages);
      kept.returns = copy(reference.returns);
    }
    if (referenceKl) fields.kl = { get: () => referenceKl(i), enumerable: true };
    else kept.kl = copy(reference.kl);
    out[i] = {
      reference: Object.defineProperties(kept, fields) as unknown as ReplayedRows["reference"],
      bounds: { advantages: copy(bounds.advantages), returns: copy(bounds.returns) },
    };
  });
  return out;
}

/** Whether two rows hold the same values, bit for bit up to NaN's payload (−0 is not 0). */
function sameBits(a: Float64Array, b: Float64Array): boolean {
  if (a.length !== b.length) return false;
  for (let t = 0; t < a.length; t++) if (!Object.is(a[t], b[t])) return false;
  return true;
}

/** Float64 elements a chunk of kept rows: 8 MB, a window's four rows a token for 256 K tokens. */
const STORE_CHUNK = 1 << 20;

type LendRows = NonNullable<Extract<ReplayResult, { ok: true }>["lendRows"]>;

/** The fields the heatmap can show for this replay: the outputs, and the KL where the dump stores one. */
export function gridFields(dump: UnderstoodDump, replay: ReplayResult | null): GridField[] {
  if (!replay?.ok) return [];
  return dump.samples.some((s) => s.kl) ? ["advantages", "returns", "kl"] : ["advantages", "returns"];
}

/**
 * The heatmap's tables for one field; null where nothing was replayed, or the dump stores no KL.
 * `replayed`: the replay's rows already read (replayedRows), else read off `replay`.
 */
export function runGrid(
  dump: UnderstoodDump,
  replay: ReplayResult,
  field: GridField,
  replayed: ReplayedRows[] | null = replayedRows(replay),
): RunGrid | null {
  if (!replay.ok || !replayed) return null;
  if (!gridFields(dump, replay).includes(field)) return null;
  const rows = dump.samples.length;
  const cols = dump.samples.reduce((max, s) => Math.max(max, s.responseLength), 0);
  const recomputed = field !== "kl" || klReplayed(dump, replay);
  const grid: RunGrid = {
    field,
    referenceIs: recomputed ? "replayed" : "zero",
    rows,
    cols,
    lengths: Int32Array.from(dump.samples, (s) => s.responseLength),
    actual: new Float64Array(rows * cols),
    reference: new Float64Array(rows * cols),
    bound: field === "kl" ? null : new Float64Array(rows * cols),
    lossMask: new Uint8Array(rows * cols),
  };
  dump.samples.forEach((s, b) => {
    const stored = s[field];
    const row = replayed[b];
    if (stored) grid.actual.set(stored, b * cols);
    if (recomputed) grid.reference.set(row.reference[field], b * cols);
    if (grid.bound && field !== "kl") grid.bound.set(row.bounds[field], b * cols);
    grid.lossMask.set(s.lossMask, b * cols);
  });
  return grid;
}

/**
 * The KL's gap is drawn only where the replay recomputed every stored KL from log-probs: a mix
 * would colour two measures alike. (Without reference log-probs slime stores zeros, and the
 * verdict holds the stored KL to them: the colour is then the stored KL itself.)
 */
export function klReplayed(dump: UnderstoodDump, replay: ReplayResult): boolean {
  return replay.ok && dump.samples.every((s, b) => !s.kl || (s.refLogProbs && replay.samples[b].kl !== null));
}
