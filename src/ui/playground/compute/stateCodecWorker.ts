/**
 * Encodes and decodes share links, and writes case files, off the main thread: lz-string over a
 * large hand-drawn batch (16 × 8192 random floats) takes seconds, and a case file of it runs two
 * scans and writes megabytes of JSON. A worker of its own, so neither ever delays a scan.
 */
import * as Comlink from "comlink";
import { exportCase } from "../../../io/caseExport";
import type { PlaygroundState } from "../../../io/playgroundState";
import { decodeState, encodeState } from "../../../io/shareLink";

export type DecodeAnswer = { ok: true; state: PlaygroundState } | { ok: false; message: string };
export type FileAnswer = { ok: true; text: string; fileName: string } | { ok: false; message: string };

const api = {
  encode(state: PlaygroundState): string {
    return encodeState(state);
  },
  /** The error crosses as its message (classes do not survive the boundary). */
  decode(text: string, source: string): DecodeAnswer {
    const decoded = decodeState(text, source);
    return decoded.ok ? decoded : { ok: false, message: decoded.error.message };
  },
  /** The state as a golden-schema case file (io's exportCase). */
  caseFile(state: PlaygroundState): FileAnswer {
    const exported = exportCase(state);
    return exported.ok
      ? { ok: true, text: exported.value.text, fileName: exported.value.fileName }
      : { ok: false, message: exported.error.message };
  },
};

export type StateCodecApi = typeof api;

Comlink.expose(api);
