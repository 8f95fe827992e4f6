/** Reads a chosen case file for the player off the page's thread (readPlayerFile). */
import * as Comlink from "comlink";
import { readPlayerFile } from "./playerFile";

const api = {
  async read(file: Blob, fileName: string) {
    let bytes: Uint8Array;
    try {
      // Bytes, not text(): invalid UTF-8 is then named by offset, never replaced.
      bytes = new Uint8Array(await file.arrayBuffer());
    } catch (error) {
      throw new Error(`${fileName}: could not be read (${(error as Error).message})`);
    }
    return readPlayerFile(bytes, fileName);
  },
};

export type PlayerFileWorkerApi = typeof api;

Comlink.expose(api);
