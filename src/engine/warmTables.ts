/**
 * Output tables made ahead for a worker's next run (the engine's, the playground's). A worker's
 * tables are transferred away, so each run's are new memory, and on these machines the first write
 * to a page of new memory costs far more than the scan that writes it: a fresh 1 MB Float64Array
 * filled by a serial loop took 4–10 ms in a worker of Chromium against 0.3 ms for one written before
 * (docs/benchmarks.md, "Tables made ahead"). So once a run is answered the worker makes and zeroes
 * the same tables again, while it has nothing else to do, and the next run writes into those.
 */
import { type FloatArray, type Zeros, zerosLike } from "../core";

/**
 * How long after an answer a worker makes the next run's tables: not at once, beside the page drawing
 * that answer on a machine of two cores, but before a person's next edit.
 */
export const REFILL_AFTER_MS = 250;

/** The most bytes of tables kept made ahead: 16 × 8192 GAE takes 6.5 MB; larger batches pay as before. */
export const WARM_BYTES_MAX = 16 * 2 ** 20;

/**
 * Tables smaller than this are not made ahead: a few pages fault in at no cost worth keeping, and a
 * run of thousands of tiny problems (the conformance view's) would keep thousands of them.
 */
export const WARM_BYTES_MIN = 64 * 2 ** 10;

interface Shape {
  float32: boolean;
  length: number;
}

export class WarmTables {
  constructor(private readonly maxBytes = WARM_BYTES_MAX) {}

  /** Tables made ahead and zeroed, not lent yet. */
  private ready: FloatArray[] = [];
  /** What was asked for since the last refill: the next run of the same batch asks the same. */
  private asked: Shape[] = [];

  /** A run starts: what it asks for is what the next refill makes (not an abandoned run's asks too). */
  begin(): void {
    this.asked = [];
  }

  /** A zeroed table (core's Zeros): one made ahead when one of the type and length is ready, else a fresh one. */
  readonly take: Zeros = <A extends FloatArray>(like: A, length: number): A => {
    const float32 = like instanceof Float32Array;
    if (length * (float32 ? 4 : 8) < WARM_BYTES_MIN) return zerosLike(like, length);
    this.asked.push({ float32, length });
    const i = this.ready.findIndex((a) => a instanceof Float32Array === float32 && a.length === length);
    if (i < 0) return zerosLike(like, length);
    return this.ready.splice(i, 1)[0] as A;
  };

  /**
   * Makes the tables asked for since the last refill (up to `maxBytes`), each written once so
   * that its pages are the process's already; tables of other shapes made earlier are dropped.
   */
  refill(): void {
    const asked = this.asked;
    this.asked = [];
    if (asked.length === 0) return;
    const ready: FloatArray[] = [];
    let bytes = 0;
    for (const { float32, length } of asked) {
      bytes += length * (float32 ? 4 : 8);
      if (bytes > this.maxBytes) break;
      const i = this.ready.findIndex((a) => a instanceof Float32Array === float32 && a.length === length);
      const table = i >= 0 ? this.ready.splice(i, 1)[0] : float32 ? new Float32Array(length) : new Float64Array(length);
      // Zeros already; the write is what maps the pages.
      table.fill(0);
      ready.push(table);
    }
    this.ready = ready;
  }

  /** Bytes of tables made ahead (tests, and the worker's memory). */
  get readyBytes(): number {
    return this.ready.reduce((sum, a) => sum + a.byteLength, 0);
  }
}
