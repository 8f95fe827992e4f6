/**
 * Opens a user's slime dump and replays it, off the main thread: a 64-sample train dump of 8k-token
 * responses is 16 MB to unzip, unpickle and replay. The dump stays here between calls, so a change of
 * settings replays without reading the file again.
 */
import * as Comlink from "comlink";
import type { ReplayResult, SlimeSettings } from "../../core";
import {
  dumpSettings,
  pairDumps,
  readTensorFile,
  replayDump,
  type SettingsTrial,
  searchSettings,
  type UnderstoodDump,
  understandDump,
} from "../../io/slimeDump";
import { gridBuffers, type RunGrid, runGrid } from "./runGrid";
import { type BatchGlance, batchGlance, type SampleRow, sampleRows, summaryText } from "./runModel";

export interface RunFile {
  name: string;
  bytes: Uint8Array;
}

export interface RunReport {
  fileName: string;
  kind: UnderstoodDump["kind"];
  notes: string[];
  /** What the dump decides about the settings (values present → ppo, the KL formula). */
  guess: Partial<SlimeSettings>;
  settings: SlimeSettings;
  glance: BatchGlance;
  rows: SampleRow[];
  summary: string;
  replayError: string | null;
  grids: { advantages: RunGrid | null; returns: RunGrid | null };
  /** For a hand-saved file: the tensors found that no lane took. */
  unused: string[];
  /** Where the worker's time went, in ms: reading the file (zip, pickle, storages) and the replay with its verdicts. */
  millis: { read: number; replay: number };
}

export type OpenAnswer = { ok: true; report: RunReport } | { ok: false; message: string };

let opened: { name: string; dump: UnderstoodDump; readMillis: number } | null = null;

function read(file: RunFile): UnderstoodDump | string {
  const tree = readTensorFile(file.bytes, file.name);
  if (!tree.ok) return tree.error.message;
  const understood = understandDump(tree.value.root, file.name);
  if (!understood.ok) return understood.error.message;
  return { ...understood.value, notes: [...tree.notes, ...understood.value.notes] };
}

function report(name: string, dump: UnderstoodDump, given: Partial<SlimeSettings>, readMillis: number): RunReport {
  const start = performance.now();
  const settings = dumpSettings(dump, given);
  const replay: ReplayResult | null = dump.kind === "train" ? replayDump(dump, settings) : null;
  const glance = batchGlance(dump);
  const rows = sampleRows(dump, replay);
  return {
    fileName: name,
    kind: dump.kind,
    notes: dump.notes,
    guess: dump.settingsGuess,
    settings,
    glance,
    rows,
    summary: summaryText(name, dump, glance, rows, replay, settings),
    replayError: replay && !replay.ok ? replay.error : null,
    grids: {
      advantages: replay ? runGrid(dump, replay, "advantages") : null,
      returns: replay ? runGrid(dump, replay, "returns") : null,
    },
    unused: dump.lanes?.unused ?? [],
    millis: { read: Math.round(readMillis), replay: Math.round(performance.now() - start) },
  };
}

function answer(r: RunReport): OpenAnswer {
  return Comlink.transfer({ ok: true, report: r }, [
    ...gridBuffers(r.grids.advantages),
    ...gridBuffers(r.grids.returns),
  ]);
}

const api = {
  /**
   * Reads one file, or a train dump and its rollout dump together (paired by rollout_position);
   * the previous dump stays open when this one is refused.
   */
  open(files: RunFile[], given: Partial<SlimeSettings>): OpenAnswer {
    const start = performance.now();
    const dumps: UnderstoodDump[] = [];
    for (const file of files) {
      const dump = read(file);
      if (typeof dump === "string") return { ok: false, message: dump };
      dumps.push(dump);
    }
    const train = dumps.find((d) => d.kind === "train");
    const rollout = dumps.find((d) => d.kind === "rollout");
    const name = files.map((f) => f.name).join(" + ");
    const dump = train && rollout ? pairDumps(train, rollout, name) : (train ?? dumps[0]);
    if (!dump) return { ok: false, message: "No file was given" };
    opened = { name, dump, readMillis: performance.now() - start };
    return answer(report(name, dump, given, opened.readMillis));
  },
  /** The open dump replayed with other settings. */
  replay(given: Partial<SlimeSettings>): OpenAnswer {
    if (!opened) return { ok: false, message: "No dump is open" };
    return answer(report(opened.name, opened.dump, given, 0));
  },
  /** Which estimator, normalisation and KL formula reproduce the open dump, with γ, λ and kl_coef as given. */
  search(given: Partial<SlimeSettings>): SettingsTrial[] {
    if (!opened) return [];
    return searchSettings(opened.dump, dumpSettings(opened.dump, given));
  },
  /** One sample's lanes, for "open in the playground". */
  sample(index: number) {
    const s = opened?.dump.samples[index];
    if (!s) return null;
    return {
      lossMask: s.lossMask,
      kl: s.kl ?? null,
      values: s.values ?? null,
      reward: s.reward,
      length: s.responseLength,
    };
  },
};

export type RunWorkerApi = typeof api;

Comlink.expose(api);
