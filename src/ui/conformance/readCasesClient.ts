import * as Comlink from "comlink";
import type { ScanCase } from "../../io/caseSchema";
import { LazyWorker } from "../workerClient/lazyWorker";
import type { ReadCasesWorkerApi } from "./readCasesWorker";

/**
 * The main thread's handle on readCasesWorker. The bytes move to the worker (transferred: empty
 * here afterwards); its errors arrive with readCases' messages unchanged. cancel() ends the worker,
 * so a read in progress stops; the next read starts a fresh one.
 */
export class CaseReader {
  private readonly worker = new LazyWorker<ReadCasesWorkerApi>(
    () => new Worker(new URL("./readCasesWorker.ts", import.meta.url), { type: "module" }),
  );

  async read(bytes: Uint8Array, fileName: string): Promise<ScanCase[]> {
    const moved = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? [bytes.buffer] : [];
    try {
      return await this.worker.remote().read(Comlink.transfer(bytes, moved as ArrayBuffer[]), fileName);
    } catch (error) {
      // Comlink sends an Error's message and name across: rebuild a plain Error with the same message.
      throw error instanceof Error ? new Error(error.message) : error;
    }
  }

  cancel(): void {
    this.worker.dispose();
  }
}
