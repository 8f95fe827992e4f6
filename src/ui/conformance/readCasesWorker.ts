/**
 * Reads a case file off the main thread: parsing and validating 120–240 MB of JSON takes seconds,
 * during which the page would not answer (not even a Cancel).
 */
import * as Comlink from "comlink";
import type { ScanCase } from "../../io/caseSchema";
import { readCases } from "./readCases";

const api = {
  read(bytes: Uint8Array, fileName: string): ScanCase[] {
    return readCases(bytes, fileName);
  },
};

export type ReadCasesWorkerApi = typeof api;

Comlink.expose(api);
