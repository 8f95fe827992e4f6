/**
 * Float64 rows handed out of one buffer and taken back all at once: a windowed replay's rows live
 * only while their window is judged, and eight fresh rows per token per pass (half a GB at 4.4 M
 * tokens) kept the collector busy. A row past the buffer's end is allocated on its own. A row is
 * not cleared: whoever takes it writes every element.
 */
export class RowArena {
  private buffer: Float64Array<ArrayBuffer>;
  private used = 0;

  constructor(size: number) {
    this.buffer = new Float64Array(size);
  }

  take(length: number): Float64Array<ArrayBuffer> {
    if (this.used + length > this.buffer.length) return new Float64Array(length);
    const row = this.buffer.subarray(this.used, this.used + length);
    this.used += length;
    return row;
  }

  /**
   * The buffer's memory given back now, not at the next collection (16.8 MB a window of 256 K
   * tokens, where the run view's memory peaks); no row may be read or taken after.
   */
  release(): void {
    const buffer = this.buffer.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer };
    buffer.transfer?.(0);
  }

  /** Every row taken so far may be handed out again. */
  reset(): void {
    this.used = 0;
  }

  /**
   * Every row taken so far handed out again, from a buffer of at least `size`: a larger one replaces
   * it, with an eighth more room, as each batch a little larger than the largest before grew it again.
   */
  reuse(size: number): void {
    if (this.buffer.length < size) this.buffer = new Float64Array(Math.ceil(size * 1.125));
    this.used = 0;
  }
}

/** A fresh row, or one of `arena`'s. */
export function rowOf(arena: RowArena | undefined, length: number): Float64Array<ArrayBuffer> {
  return arena ? arena.take(length) : new Float64Array(length);
}
