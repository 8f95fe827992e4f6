/**
 * Opens a user's slime dump and replays it, off the main thread: a 64-sample train dump of 8k-token
 * responses is 16 MB to unzip, unpickle and replay. The dump stays here between calls, so a change of
 * settings replays without reading the file again.
 */
import * as Comlink from "comlink";
import { type InferredSettings, type ReplayResult, SLIME_DEFAULTS, type SlimeSettings } from "../../core";
import { encodeState } from "../../io/shareLink";
import {
  bitsSentence,
  checkBits,
  checkDump,
  DUMP_TOKEN_FIELDS,
  type DumpCheck,
  dumpSettings,
  inferDumpSettings,
  newRunSettingsMemo,
  type OpenedDump,
  openDump,
  pairDumps,
  planRun,
  type RunStepPlan,
  readRunStep,
  refusal,
  replayInWindows,
  type SettingsTrial,
  type StageVerdict,
  type StepSummary,
  searchSettings,
  type UnderstoodDump,
  type UnusedFile,
} from "../../io/slimeDump";
import type { ByteSource } from "../../io/tensorFiles/byteSource";
import { isSlab } from "../../io/tensorFiles/smallArrays";
import { type PictureAsk, type PooledPicture, pictureTransfers, withBitmap } from "../heatmap/picture";
import { type ChunkedFile, openBlob, ReadBuffers } from "./blobSource";
import { plainToPlayground } from "./plainToPlayground";
import { casesExport, type ExportFile, pytestFileExport } from "./runExports";
import {
  type GridField,
  gridFields,
  KEEP_ROWS_MAX_TOKENS,
  klReplayed,
  type ReplayedRows,
  replayedRows,
  windowedRows,
} from "./runGrid";
import { type BatchGlance, batchGlance, sampleRows, summaryText } from "./runModel";
import { keepRunPictures, type RunGrids, runCell, runPicture } from "./runPictures";
import { sampleToPlayground } from "./runToPlayground";
import type { SampleFieldsAnswer, StoredFields } from "./sampleFields";
import { type SampleTable, sampleTable } from "./sampleTable";

export interface RunFile {
  name: string;
  /** The chosen File (or the one kept in IndexedDB): read whole up to 200 MiB, else by slices (blobSource.ts). */
  blob: Blob;
}

export interface RunReport {
  fileName: string;
  kind: UnderstoodDump["kind"];
  notes: string[];
  /** Which settings the user gave and which were read off the dump's own numbers. */
  settingsSource: DumpCheck["settingsSource"];
  settings: SlimeSettings;
  /** The check of a train dump: each stage's verdict, what is wrong, how the settings were read. */
  check: RunCheck | null;
  glance: BatchGlance;
  /** Every sample's line of the table, as columns (sampleTable.ts), sent as transferred typed arrays. */
  samples: SampleTable;
  summary: string;
  replayError: string | null;
  /** The fields the heatmap can show; their grids follow the verdict (RunClient.grids). */
  gridFields: GridField[];
  /** Which replay of the worker this report shows: its grids and bits answer with it (GridAnswer). */
  replayId: number;
  /** slime's rollout_id, as the dump stores it (or the number of `train_data/{rollout_id}.pt`); null when neither says. */
  step: number | null;
  /** For a hand-saved file: the tensors found that no lane took. */
  unused: string[];
  /** Where the worker's time went, in ms: reading the file (zip, pickle, storages) and the replay with its verdicts. */
  millis: { read: number; settings: number; replay: number };
}

export interface RunCheck {
  passed: boolean;
  stages: StageVerdict[];
  /** The known bug that reproduces the stored numbers, or the first departure, in words. */
  diagnosis: string | null;
  /** The settings given fail where those read off the dump pass: the difference. */
  advice: string | null;
  /** γ, λ and kl_coef as read off the dump, with their uncertainty. */
  estimates: InferredSettings["estimates"];
  /** Why a setting could not be read off the dump. */
  notIdentifiable: string[];
  /** The stored returns against slime's float32 CPU arithmetic, bit for bit, in words (null: no scan to redo). */
  bits: string | null;
  /** The bits are computed after the verdict is shown (RunClient.bits): seconds at 4 M tokens. */
  bitsPending: boolean;
}

/** What a run folder's summary reports as it goes: the plan first, then each step as it is read. */
export type RunFolderEvent =
  | { type: "plan"; steps: RunStepPlan[]; unused: UnusedFile[]; totalBytes: number }
  | { type: "step"; index: number; summary: StepSummary; notes: string[]; unused: UnusedFile[]; bytes: number };

export type OpenAnswer = { ok: true; report: RunReport } | { ok: false; message: string };
/** How far a read is: the files' bytes (a large one is read as it is understood), then the two passes over its numbers. */
export type OpenProgress = { stage: "read"; bytes: number; total: number } | { stage: "settings" | "check" };
/** The last report's fields' shapes (null: no such field), tagged with that report's replay. */
export type { RunGrids };
export type GridsAnswer = { ok: true; replay: number; grids: RunGrids } | Refusal;
export type BitsAnswer = { ok: true; replay: number; bits: string | null } | Refusal;

/** A page's request answered with a sentence instead (settings slime refuses, an estimator with no scan). */
export type Refusal = { ok: false; message: string };
export type PlaygroundAnswer = { ok: true; encoded: string } | Refusal;
export type ExportAnswer = ({ ok: true } & ExportFile) | Refusal;

let opened: {
  name: string;
  dump: UnderstoodDump;
  readMillis: number;
  /** Reading the settings off the dump's numbers (a replay of the settings it settles on included). */
  settingsMillis: number;
  step: number | null;
  /** Read off the dump's numbers once, when it is opened. */
  inferred: InferredSettings | null;
} | null = null;

/**
 * The last report's replay, for its grids, its bits and a sample's replayed lines. Its rows are read
 * off the replay once, when first asked for (the windowed replay recomputes them on each read).
 */
let current: {
  id: number;
  dump: UnderstoodDump;
  replay: ReplayResult;
  rows: ReplayedRows[] | null;
  bits: () => string | null;
} | null = null;
let replays = 0;

/** The last replay's lines for one sample, copied out: the KL where the grid would show it replayed. */
function replayedLines(index: number): SampleFieldsAnswer["replayed"] {
  if (!current?.replay.ok) return null;
  const sample = current.replay.samples[index];
  if (!sample) return null;
  const reference = current.rows?.[index]?.reference ?? sample.reference;
  return {
    advantages: reference.advantages.slice(),
    returns: reference.returns.slice(),
    kl: klReplayed(current.dump, current.replay) ? reference.kl.slice() : null,
  };
}

function currentRows(): ReplayedRows[] | null {
  if (!current) return null;
  const { dump } = current;
  current.rows ??= rowsKept(dump)
    ? replayedRows(current.replay, (i) => dump.samples[i].values)
    : windowedRows(current.replay);
  return current.rows;
}

/** Whether a replay's rows are kept (replayedRows), or read through its windows each time (windowedRows). */
function rowsKept(dump: UnderstoodDump): boolean {
  return dump.samples.reduce((sum, s) => sum + s.responseLength, 0) <= KEEP_ROWS_MAX_TOKENS;
}

/** The settings in force: what the user gave over what the open dump's numbers say. */
function settingsFor(given: Partial<SlimeSettings>): SlimeSettings {
  if (!opened) return { ...SLIME_DEFAULTS, ...given };
  return opened.inferred ? { ...opened.inferred.settings, ...given } : dumpSettings(opened.dump, given);
}

async function read(file: RunFile, onBytes?: (read: number) => void): Promise<OpenedDump | string> {
  let source: Awaited<ReturnType<typeof openBlob>>;
  try {
    source = await openBlob(file.blob, file.name, { onBytes });
  } catch (error) {
    // Changed or deleted since it was chosen: the browser's reason, as a read by slices gives it.
    return refusal(error, file.name).message;
  }
  const opened1 = openDump(source);
  if (!opened1.ok) return opened1.error.message;
  ownFields(opened1.value.dump, source.chunks);
  return opened1.value;
}

/**
 * Each per-token field copied out of the file's bytes, so that the bytes (the whole file, ppo512's
 * 195 MB, of which the fields are 124 MB: the tokens and the int32 loss masks are the rest) go
 * before the settings are read and the dump replayed, where the view's memory peaks. A file read in
 * chunks (openBlob's ChunkedFile) has its fields copied out a chunk at a time, each chunk let go
 * once none of its fields is left: the copies' allocations give the collector the chunks before,
 * where the whole file stayed beside all the copies until the next major collection.
 */
function ownFields(dump: UnderstoodDump, file?: ChunkedFile): void {
  const views = new Map<
    ArrayBufferLike,
    { sample: UnderstoodDump["samples"][number]; key: (typeof DUMP_TOKEN_FIELDS)[number] }[]
  >();
  for (const sample of dump.samples) {
    for (const key of DUMP_TOKEN_FIELDS) {
      const a = sample[key];
      // A field cut from a slab (smallArrays.ts) holds no file bytes: it stays as it is.
      if (!a || a.byteLength === a.buffer.byteLength || isSlab(a.buffer)) continue;
      const list = views.get(a.buffer);
      if (list) list.push({ sample, key });
      else views.set(a.buffer, [{ sample, key }]);
    }
  }
  const own = (buffer: ArrayBufferLike) => {
    for (const { sample, key } of views.get(buffer) ?? []) {
      const a = sample[key];
      if (a) sample[key] = a.slice();
    }
    views.delete(buffer);
  };
  file?.chunks.forEach((chunk, index) => {
    if (!chunk) return;
    own(chunk.buffer);
    file.drop(index);
  });
  for (const buffer of [...views.keys()]) own(buffer);
}

function report(
  name: string,
  dump: UnderstoodDump,
  given: Partial<SlimeSettings>,
  spent: { readMillis: number; settingsMillis: number },
): RunReport {
  const start = performance.now();
  // The bits follow the verdict (RunClient.bits): the float32 CPU scan of every sample takes seconds.
  const check = dump.kind === "train" ? checkDump(dump, given, opened?.inferred ?? undefined, { bits: false }) : null;
  const settings = check?.settings ?? dumpSettings(dump, given);
  const replay: ReplayResult | null = check?.replay ?? null;
  current = replay
    ? {
        id: ++replays,
        dump,
        replay,
        rows: null,
        bits: () => {
          const bits = check ? checkBits(dump, settings, check.stages) : null;
          return bits ? bitsSentence(bits) : null;
        },
      }
    : null;
  const glance = batchGlance(dump);
  const rows = sampleRows(dump, replay);
  return {
    fileName: name,
    kind: dump.kind,
    notes: dump.notes,
    settingsSource: check?.settingsSource ?? {},
    settings,
    check: check ? runCheck(check) : null,
    glance,
    samples: sampleTable(rows),
    summary: summaryText(name, dump, glance, rows, replay, settings, check?.passed ?? null),
    replayError: replay && !replay.ok ? replay.error : null,
    gridFields: gridFields(dump, replay),
    replayId: current?.id ?? 0,
    step: opened?.step ?? null,
    unused: dump.lanes?.unused ?? [],
    millis: {
      read: Math.round(spent.readMillis),
      settings: Math.round(spent.settingsMillis),
      replay: Math.round(performance.now() - start),
    },
  };
}

function runCheck(check: DumpCheck): RunCheck {
  const cancelled = check.replay.ok && check.replay.samples.find((x) => x.advantages.cause?.includes("cancelled"));
  const diagnosis = check.diagnosis?.best
    ? check.diagnosis.sentence
    : cancelled
      ? cancelled.advantages.cause
      : check.firstDepartingStage
        ? `no known bug reproduces the stored numbers (docs/dumps.md lists those tried); the dump first departs at the ${check.firstDepartingStage} stage, above.`
        : null;
  return {
    passed: check.passed,
    stages: check.stages,
    diagnosis,
    advice: check.advice,
    estimates: check.inferred.estimates,
    notIdentifiable: Object.values(check.inferred.notIdentifiable).filter((why): why is string => Boolean(why)),
    bits: null,
    bitsPending: check.stages.find((x) => x.stage === "returns")?.status === "pass",
  };
}

function answer(r: RunReport): OpenAnswer {
  const { order, placeOf, failing, numbers, textCodes } = r.samples;
  return Comlink.transfer(
    { ok: true, report: r },
    [order, placeOf, failing, numbers, textCodes].map((a) => a.buffer),
  );
}

/** A step's next one is read ahead, while this one is checked, up to this many bytes (two steps' memory). */
const READ_AHEAD_BYTES = 64 * 2 ** 20;

/**
 * A run folder's steps read in turn (runDirectory's plan), each checked and summarised on its own
 * and posted as it finishes; only its row is kept, so memory is one step's (and the next one's bytes,
 * read ahead). Cancelled by ending the worker (runFolderClient), since a step's check is one
 * synchronous task. With `share`, this worker reads every `of`-th step from `part` on, beside others
 * reading the rest; the plan is posted by part 0.
 *
 * Each file is read as the step view reads one (openBlob): whole, in one asynchronous read, up to
 * READ_WHOLE_BYTES, its tensors views of those bytes. Read by synchronous 16 MiB slices (blobSource)
 * a run's gigabyte cost seconds of the worker's CPU in FileReaderSync and as many again copying each
 * tensor out of its chunk; an asynchronous read is the browser's file thread's, beside the check of
 * the step before.
 */
async function summariseRun(
  files: RunFile[],
  given: Partial<SlimeSettings>,
  onEvent: (event: RunFolderEvent) => void,
  share: { part: number; of: number } = { part: 0, of: 1 },
): Promise<void> {
  const byPath = new Map(files.map((f) => [f.name, f.blob]));
  const plan = planRun(files.map((f) => f.name));
  const pathsOf = (step: RunStepPlan) => [...step.train, ...(step.rollout ? [step.rollout] : [])];
  const sizeOf = (step: RunStepPlan) => pathsOf(step).reduce((sum, p) => sum + (byPath.get(p)?.size ?? 0), 0);
  if (share.part === 0) {
    onEvent({
      type: "plan",
      steps: plan.steps,
      unused: plan.unused,
      totalBytes: plan.steps.reduce((sum, s) => sum + sizeOf(s), 0),
    });
  }
  // A file's source, or why it cannot be read (a file changed or deleted since it was chosen): thrown
  // where readRunStep opens it, which names the file and makes the step "not checked".
  type Opened = { source: ByteSource & { release?(): void } } | { error: unknown };
  // Each step's files read into buffers the steps before were read into (ReadBuffers).
  const buffers = new ReadBuffers();
  const openAll = (step: RunStepPlan): Promise<Map<string, Opened>> =>
    Promise.all(
      pathsOf(step).map(async (path): Promise<[string, Opened]> => {
        const blob = byPath.get(path);
        if (!blob) return [path, { error: new Error("not among the files chosen") }];
        try {
          return [path, { source: await openBlob(blob, path, { buffers }) }];
        } catch (error) {
          return [path, { error }];
        }
      }),
    ).then((entries) => new Map(entries));
  const mine = plan.steps.flatMap((step, index) => (index % share.of === share.part ? [{ step, index }] : []));
  // The settings read off one step are tried first on this worker's next; a step that fails is read alone.
  const memo = newRunSettingsMemo();
  let opening = mine.length > 0 ? openAll(mine[0].step) : null;
  for (let k = 0; k < mine.length; k++) {
    const { step, index } = mine[k];
    const opened = (await opening) ?? new Map<string, Opened>();
    const next = mine[k + 1];
    opening = next ? (sizeOf(next.step) <= READ_AHEAD_BYTES ? openAll(next.step) : null) : null;
    const read1 = readRunStep(
      step,
      (path) => {
        const one = opened.get(path);
        if (!one) throw new Error("not among the files chosen");
        if ("error" in one) throw one.error;
        return one.source;
      },
      given,
      memo,
    );
    onEvent({
      type: "step",
      index,
      summary: read1.summary,
      notes: [...read1.notes, ...(read1.dump?.notes ?? [])],
      unused: read1.unused,
      bytes: sizeOf(step),
    });
    // Nothing of the step is kept but its row: its files' buffers are read into again.
    for (const one of opened.values()) if ("source" in one) one.source.release?.();
    opened.clear();
    // A step larger than READ_AHEAD_BYTES is read after the one before is done with.
    if (next && !opening) opening = openAll(next.step);
  }
}

const api = {
  /**
   * Reads one file, or a train dump and its rollout dump together (paired by rollout_position);
   * the previous dump stays open when this one is refused.
   */
  async open(
    files: RunFile[],
    given: Partial<SlimeSettings>,
    onProgress?: (progress: OpenProgress) => void,
  ): Promise<OpenAnswer> {
    const start = performance.now();
    const reads: OpenedDump[] = [];
    const total = files.reduce((sum, f) => sum + f.blob.size, 0);
    let before = 0;
    for (const file of files) {
      const read1 = await read(file, (bytes) => onProgress?.({ stage: "read", bytes: before + bytes, total }));
      if (typeof read1 === "string") return { ok: false, message: read1 };
      reads.push(read1);
      before += file.blob.size;
    }
    const train = reads.find((r) => r.dump.kind === "train");
    const rollout = reads.find((r) => r.dump.kind === "rollout");
    const name = files.map((f) => f.name).join(" + ");
    const dump = train && rollout ? pairDumps(train.dump, rollout.dump, name) : (train ?? reads[0])?.dump;
    if (!dump) return { ok: false, message: "No file was given" };
    // Either dump's rollout_id: a pair shares its step.
    const step = rollout?.step ?? train?.step ?? null;
    const readMillis = performance.now() - start;
    // Replayed in windows as the CLI is: the replay whole held eight float64 rows a token at once
    // (283 MB at ppo512, the renderer's peak). The rows the page draws are read once after the
    // verdict (currentRows), a window replayed at a time: four rows a token kept, about 0.6 s of
    // CPU; above KEEP_ROWS_MAX_TOKENS they are read through the windows each time instead.
    replayInWindows(dump);
    if (dump.kind === "train") onProgress?.({ stage: "settings" });
    const inferred = dump.kind === "train" ? inferDumpSettings(dump) : null;
    opened = { name, dump, readMillis, settingsMillis: performance.now() - start - readMillis, step, inferred };
    if (dump.kind === "train") onProgress?.({ stage: "check" });
    return answer(report(name, dump, given, opened));
  },
  /** The open dump replayed with other settings. */
  replay(given: Partial<SlimeSettings>): OpenAnswer {
    if (!opened) return { ok: false, message: "No dump is open" };
    return answer(report(opened.name, opened.dump, given, { readMillis: 0, settingsMillis: 0 }));
  },
  /**
   * The last report's fields measured for the heatmap, after its verdict was posted: each field's
   * shape and picture id go to the page, the measured cells stay here (runPictures.ts). All three at
   * once: a field's grid built when the field is switched took 2.4–4.4 s to draw at 512 × 16k under load.
   */
  grids(): GridsAnswer {
    if (!current) return { ok: false, message: "Nothing was replayed" };
    const grids = keepRunPictures(current.dump, current.replay, currentRows(), !rowsKept(current.dump));
    return { ok: true, replay: current.id, grids };
  },
  /** The last report's stored returns against slime's float32 CPU arithmetic, bit for bit, in words. */
  bits(): BitsAnswer {
    if (!current) return { ok: false, message: "Nothing was replayed" };
    return { ok: true, replay: current.id, bits: current.bits() };
  },
  /** Which estimator, normalisation and KL formula reproduce the open dump, with γ, λ and kl_coef as given. */
  search(given: Partial<SlimeSettings>): SettingsTrial[] {
    if (!opened) return [];
    return searchSettings(opened.dump, settingsFor(given));
  },
  /**
   * One sample as a playground link's state (encoded here: a long sample's lanes are work): its lanes,
   * and where it came from with what slime stored for it, for the playground's banner and its
   * "stored in the dump" line.
   */
  sampleInPlayground(index: number, given: Partial<SlimeSettings>): PlaygroundAnswer {
    const s = opened?.dump.samples[index];
    if (!opened || !s) return { ok: false, message: "No such sample is open" };
    const settings = settingsFor(given);
    const lanes = {
      lossMask: s.lossMask,
      kl: s.kl ?? null,
      values: s.values ?? null,
      reward: s.reward,
      length: s.responseLength,
    };
    const state = sampleToPlayground(lanes, settings, {
      file: opened.name,
      step: opened.step,
      sample: index,
      rolloutPosition: s.rolloutPosition,
      batchSize: opened.dump.samples.length,
      estimator: settings.advantageEstimator,
      normalized: settings.normalizeAdvantages,
      advantages: Array.from(s.advantages ?? []),
      returns: Array.from(s.returns ?? []),
    });
    return typeof state === "string" ? { ok: false, message: state } : { ok: true, encoded: encodeState(state) };
  },
  /**
   * One sample's every stored per-token field, copied out for the page (a sample's worth: the page
   * never holds the whole batch's fields).
   */
  sampleFields(index: number): SampleFieldsAnswer | Refusal {
    const s = opened?.dump.kind === "train" ? opened.dump.samples[index] : undefined;
    if (!s) return { ok: false, message: "No such sample is open" };
    const fields: StoredFields = {
      advantages: s.advantages?.slice(),
      returns: s.returns?.slice(),
      values: s.values?.slice(),
      kl: s.kl?.slice(),
      log_probs: s.logProbs?.slice(),
      ref_log_probs: s.refLogProbs?.slice(),
      rollout_log_probs: s.rolloutLogProbs?.slice(),
      entropy: s.entropy?.slice(),
      loss_masks: s.lossMask.slice(),
    };
    // The replayed lines: the page draws the sample's chart and its fields from these, never from a grid.
    const replayed = current && current.dump === opened?.dump ? replayedLines(index) : null;
    const buffers = [...Object.values(fields), ...Object.values(replayed ?? {})].flatMap((a) =>
      a ? [a.buffer as ArrayBuffer] : [],
    );
    const replay = replayed ? current?.id : undefined;
    return Comlink.transfer({ ok: true, sample: index, length: s.responseLength, fields, replayed, replay }, buffers);
  },
  /** A plain file's lanes as a playground batch. */
  plainInPlayground(): PlaygroundAnswer {
    const lanes = opened?.dump.lanes;
    if (!lanes) return { ok: false, message: "No plain file is open" };
    const state = plainToPlayground(lanes);
    return typeof state === "string" ? { ok: false, message: state } : { ok: true, encoded: encodeState(state) };
  },
  /** The chosen samples as a golden case file (scanlab dump --export-cases). */
  exportCases(indices: number[], given: Partial<SlimeSettings>): ExportAnswer {
    if (opened?.dump.kind !== "train") return { ok: false, message: "No train dump is open" };
    const file = casesExport(opened.dump, settingsFor(given), indices, opened.name);
    return typeof file === "string" ? { ok: false, message: file } : { ok: true, ...file };
  },
  /** The chosen samples as a pytest file running slime's own scan on them. */
  exportPytest(indices: number[], given: Partial<SlimeSettings>): ExportAnswer {
    if (opened?.dump.kind !== "train") return { ok: false, message: "No train dump is open" };
    const file = pytestFileExport(opened.dump, settingsFor(given), indices, opened.name);
    return typeof file === "string" ? { ok: false, message: file } : { ok: true, ...file };
  },
  summariseRun,
  /** The heatmap's pooled picture of a report's grid (its `pictureId`); null once a newer report replaced it. */
  async picture(pictureId: number, ask: PictureAsk): Promise<PooledPicture | null> {
    const pooled = runPicture(pictureId, ask);
    if (!pooled) return null;
    const picture = await withBitmap(pooled);
    return Comlink.transfer(picture, pictureTransfers(picture));
  },
  /** One cell's values of a report's grid (its `pictureId`), for the heatmap's readout; null once replaced. */
  cell: runCell,
};

export type RunWorkerApi = typeof api;

Comlink.expose(api);
