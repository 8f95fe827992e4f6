/**
 * Encodes and decodes share links, and writes the exports, off the main thread: lz-string over a
 * large hand-drawn batch (16 × 8192 random floats) takes seconds, and a case file or CSV of it
 * writes megabytes of text. A worker of its own, so none of it ever delays a scan.
 */
import * as Comlink from "comlink";
import { exportCase } from "../../io/caseExport";
import { exportConventionCase } from "../../io/conventionCaseExport";
import { type CsvResults, exportCsv } from "../../io/csvExport";
import { materializeRows } from "../../io/playgroundProblem";
import type { PlaygroundState } from "../../io/playgroundState";
import { type PytestExport, pytestExport, pytestPrediction } from "../../io/pytestSnippet";
import { decodeState, encodeState } from "../../io/shareLink";
import type { SlimeTolerancePrediction } from "../../io/slimeTolerance";
import { type Imported, importFile, type LaneTarget } from "./importFile";
import { type PackedState, packState, unpackState } from "./packState";

export type DecodeAnswer = { ok: true; state: PlaygroundState } | { ok: false; message: string };
/** An import's answer: its state packed (lanes as typed arrays, transferred back), or why it failed. */
export type ImportAnswer = { ok: true; imported: PackedImported; notes: string[] } | { ok: false; message: string };
export type PackedImported = Imported<PackedState>;

export type FileAnswer = { ok: true; text: string; fileName: string } | { ok: false; message: string };

const api = {
  encode(packed: PackedState): string {
    return encodeState(unpackState(packed));
  },
  /** The error crosses as its message (classes do not survive the boundary). */
  decode(text: string, source: string): DecodeAnswer {
    const decoded = decodeState(text, source);
    return decoded.ok ? decoded : { ok: false, message: decoded.error.message };
  },
  /**
   * Reads an imported file here, not on the main thread: a 38 MB CSV takes seconds to parse.
   * `packed` is the current state (its rows, for an import into the current batch).
   */
  importFile(name: string, bytes: Uint8Array, packed: PackedState, target: LaneTarget): ImportAnswer {
    const current = unpackState(packed);
    const result = importFile(name, bytes, current, materializeRows(current), target);
    if (!result.ok) return { ok: false, message: result.error.message };
    const value = result.value;
    if (value.kind === "question") return { ok: true, imported: value, notes: result.notes };
    const { packed: state, buffers } = packState(value.kind === "state" ? value.state : value.opened.state);
    const imported: PackedImported =
      value.kind === "state" ? { ...value, state } : { ...value, opened: { ...value.opened, state } };
    return Comlink.transfer({ ok: true, imported, notes: result.notes }, buffers);
  },
  /** The state as a golden-schema case file (io's exportCase). */
  caseFile(packed: PackedState): FileAnswer {
    const exported = exportCase(unpackState(packed));
    return exported.ok
      ? { ok: true, text: exported.value.text, fileName: exported.value.fileName }
      : { ok: false, message: exported.error.message };
  },
  /** The state as a library-convention case file for the library shown (io's exportConventionCase). */
  conventionCase(packed: PackedState): FileAnswer {
    const exported = exportConventionCase(unpackState(packed));
    return exported.ok
      ? { ok: true, text: exported.value.text, fileName: exported.value.fileName }
      : { ok: false, message: exported.error.message };
  },
  /** Inputs and the results on screen as a long-form CSV (io's exportCsv); `state` is what they were computed from. */
  csv(packed: PackedState, results: CsvResults): FileAnswer {
    const state = unpackState(packed);
    const exported = exportCsv(state, materializeRows(state), results);
    return exported.ok
      ? { ok: true, text: exported.value.text, fileName: exported.value.fileName }
      : { ok: false, message: exported.error.message };
  },
  /**
   * A pytest file that rebuilds the inputs and checks slime's scan against its serial loop and
   * against Scanlab's reference, with what Scanlab predicts slime's own assertion will do.
   */
  pytest(packed: PackedState): PytestExport {
    return pytestExport(unpackState(packed));
  },
  /**
   * What slime's own assertion will do on these inputs, alone: the menu shows it when it opens,
   * and writing the file (seconds for a 16 × 8192 batch) waits for the click.
   */
  pytestPrediction(packed: PackedState): SlimeTolerancePrediction {
    return pytestPrediction(unpackState(packed));
  },
};

export type StateCodecApi = typeof api;

Comlink.expose(api);
