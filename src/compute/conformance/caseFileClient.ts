import * as Comlink from "comlink";
import type { CaseVerdict } from "../../conformance";
import type { ScanAlgorithm } from "../../core";
import { LazyWorker } from "../workerClient/lazyWorker";
import { answerBuffers, type CaseInfo, type EngineAnswer, type PreparedCases } from "./caseBook";
import type { CaseFileWorkerApi } from "./caseFileWorker";

/** The file's worker was ended (Cancel, a newer file, the page closing) while a call was pending. */
export class CaseFileClosedError extends Error {
  constructor(fileName: string) {
    super(`${fileName}: the file was closed`);
    this.name = "CaseFileClosedError";
  }
}

/**
 * The page's handle on one case file, kept in a worker of its own (caseFileWorker.ts): reading it,
 * turning it into engine problems, judging the engine's answers. Arrays move, never copied, both
 * ways. close() ends the worker: a read in progress stops, every pending call rejects with
 * CaseFileClosedError, and the previous file (another CaseFile) is untouched.
 */
export class CaseFile {
  private readonly worker = new LazyWorker<CaseFileWorkerApi>(
    () => new Worker(new URL("./caseFileWorker.ts", import.meta.url), { type: "module" }),
  );
  private readonly closed: Promise<never>;
  private close_!: () => void;
  private isClosed = false;

  constructor(readonly fileName: string) {
    this.closed = new Promise<never>((_, reject) => {
      this.close_ = () => reject(new CaseFileClosedError(fileName));
    });
    this.closed.catch(() => {});
  }

  /**
   * Reads, parses and validates a chosen file (a Blob, read in the worker) or bytes (moved to the
   * worker: empty here afterwards); resolves with the cases' names and kinds.
   */
  async read(contents: Blob | Uint8Array): Promise<CaseInfo[]> {
    const whole = contents instanceof Uint8Array && contents.byteLength === contents.buffer.byteLength;
    const moved = whole && contents.byteOffset === 0 ? [contents.buffer as ArrayBuffer] : [];
    try {
      return await this.call((api) => api.read(Comlink.transfer(contents, moved), this.fileName));
    } catch (error) {
      // Comlink sends an Error's message and name across: rebuild a plain Error with the same message.
      if (error instanceof CaseFileClosedError) throw error;
      throw error instanceof Error ? new Error(error.message) : error;
    }
  }

  prepare(algorithm: ScanAlgorithm): Promise<PreparedCases> {
    return this.call((api) => api.prepare(algorithm));
  }

  judge(index: number, answer: EngineAnswer, algorithm: ScanAlgorithm): Promise<CaseVerdict> {
    return this.call((api) => api.judge(index, Comlink.transfer(answer, answerBuffers(answer)), algorithm));
  }

  close(): void {
    this.isClosed = true;
    this.close_();
    this.worker.dispose();
  }

  private call<T>(send: (api: Comlink.Remote<CaseFileWorkerApi>) => Promise<T>): Promise<T> {
    if (this.isClosed) return this.closed;
    return Promise.race([this.closed, (async () => send(this.worker.remote()))()]);
  }
}
