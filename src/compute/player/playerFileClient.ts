import { MAX_CASE_FILE_BYTES, tooLargeError } from "../../io/caseFile";
import { LazyWorker } from "../workerClient/lazyWorker";
import type { readPlayerFile } from "./playerFile";
import type { PlayerFileWorkerApi } from "./playerFileWorker";

/**
 * The player's case files, read and parsed in a worker of their own (a 200 MB file takes seconds).
 * The newest choice wins: an older read that ends later resolves to undefined, its error is dropped.
 */
export class PlayerFileReader {
  private readonly worker = new LazyWorker<PlayerFileWorkerApi>(
    () => new Worker(new URL("./playerFileWorker.ts", import.meta.url), { type: "module" }),
  );
  private latest = 0;

  /** The file's cases (those too large to replay left out, and `leftOut` saying so); refused by size before reading. */
  async read(file: File): Promise<ReturnType<typeof readPlayerFile> | undefined> {
    const id = ++this.latest;
    try {
      if (file.size > MAX_CASE_FILE_BYTES) throw tooLargeError(file.name, file.size);
      const read = await this.worker.remote().read(file, file.name);
      return id === this.latest ? read : undefined;
    } catch (error) {
      if (id === this.latest) throw error;
      return undefined;
    }
  }

  dispose(): void {
    this.worker.dispose();
  }
}
