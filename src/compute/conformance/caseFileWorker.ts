/**
 * A case file's own worker: it parses and validates the file (120–240 MB of JSON take seconds),
 * keeps the cases, builds the engine problems and judges the engine's answers, so that none of
 * that work (each element of millions held to its own bound) stops the page, not even a Cancel.
 */
import * as Comlink from "comlink";
import type { ScanAlgorithm } from "../../core";
import { CaseBook, type CaseInfo, type EngineAnswer, preparedBuffers } from "./caseBook";
import { readCases } from "./readCases";

let book: CaseBook | undefined;

function opened(): CaseBook {
  if (!book) throw new Error("no case file was read in this worker");
  return book;
}

const api = {
  async read(contents: Blob | Uint8Array, fileName: string): Promise<CaseInfo[]> {
    book = new CaseBook(readCases(await bytesOf(contents, fileName), fileName));
    return book.infos();
  },
  async prepare(algorithm: ScanAlgorithm) {
    const prepared = await opened().prepare(algorithm);
    return Comlink.transfer(prepared, preparedBuffers(prepared));
  },
  judge(index: number, answer: EngineAnswer, algorithm: ScanAlgorithm) {
    return opened().judge(index, answer, algorithm);
  },
};

/** A chosen file's bytes, read here (a Blob is read on the thread that asks): bytes, not text, so invalid UTF-8 is reported by offset. */
async function bytesOf(contents: Blob | Uint8Array, fileName: string): Promise<Uint8Array> {
  if (contents instanceof Uint8Array) return contents;
  try {
    return new Uint8Array(await contents.arrayBuffer());
  } catch (error) {
    throw new Error(`${fileName}: could not be read (${(error as Error).message})`);
  }
}

export type CaseFileWorkerApi = typeof api;

Comlink.expose(api);
