import { blobSource, fileReaderSlices } from "../../io/tensorFiles/blobSource";
import type { ByteSource } from "../../io/tensorFiles/byteSource";

/**
 * A file up to this size is read whole, in one read, and its tensors are views of those bytes: the
 * dump's fields are most of such a file, and the page holds them all anyway (the CLI reads a file
 * up to the same size whole, src/cli/dumpCommand.ts).
 */
export const READ_WHOLE_BYTES = 200 * 2 ** 20;

/**
 * The chosen file as the run view's readers take it: up to READ_WHOLE_BYTES read whole at once
 * (one asynchronous read of the `File`), a larger one read by slices (blobSource). On ppo512 (196
 * MB) the slices cost 2.1 s of the worker's CPU in `FileReaderSync` and 0.9 s more copying each
 * tensor out of its chunk; one read hands the whole file over and each tensor is a view of it.
 * Rejects with the browser's reason where the file was changed or deleted since it was chosen.
 */
export async function openBlob(
  blob: Blob,
  name: string,
  options: {
    /** Told the bytes read so far. */
    onBytes?: (read: number) => void;
    /** Where a file read whole is read into; its source's `release` hands the buffer back, once nothing reads it. */
    buffers?: ReadBuffers;
  } = {},
): Promise<ByteSource & { release?(): void }> {
  const { onBytes, buffers } = options;
  if (blob.size === 0 || blob.size > READ_WHOLE_BYTES) {
    const slices = fileReaderSlices(blob);
    // A larger file is read about once as it is understood (its end first, then its records in
    // order): the bytes read so far are how far it is.
    let read = 0;
    return blobSource(blob, name, (start, end) => {
      const bytes = slices(start, end);
      read += end - start;
      onBytes?.(Math.min(read, blob.size));
      return bytes;
    });
  }
  if (!buffers) {
    const source = wholeFileSource(new Uint8Array(await blob.arrayBuffer()), name);
    onBytes?.(blob.size);
    return source;
  }
  const bytes = await buffers.read(blob);
  onBytes?.(blob.size);
  return { ...wholeFileSource(bytes, name), release: () => buffers.giveBack(bytes) };
}

/** Free buffers ReadBuffers keeps: a step's train and rollout dumps, and the next step's read ahead. */
const KEPT_BUFFERS = 4;

/** What one read of a file's stream may bring at most (ReadBuffers). */
const BOUNCE_BYTES = 1 << 20;

/**
 * Buffers a run folder's files are read into, each handed back once its step is checked and taken
 * again by a later step's file: a fresh buffer per file (run50's 20 MB a step) had every 4 KiB of it
 * fault a fresh page in as it was written, and the collector's work on it took a major collection a
 * step. A file is read through its stream's BYOB reader into a 1 MiB bounce buffer and copied on:
 * a BYOB read hands its buffer back under a new name, and read straight into the file's buffer, each
 * of a step's 15 or so reads handed the whole 20 MB round, which the collector counted as that much
 * fresh memory (two to three major collections a step).
 */
export class ReadBuffers {
  private readonly free: ArrayBuffer[] = [];
  /** One per read in flight: a step's files are read at once. */
  private readonly bounces: ArrayBuffer[] = [];

  /** The blob's bytes, in a free buffer large enough or a new one with room for a slightly larger file. */
  async read(blob: Blob): Promise<Uint8Array<ArrayBuffer>> {
    const size = blob.size;
    const fits = this.free.filter((b) => b.byteLength >= size).sort((a, b) => a.byteLength - b.byteLength)[0];
    if (fits) this.free.splice(this.free.indexOf(fits), 1);
    // A step's file a little larger than the last one's would miss every buffer: an eighth more room.
    const bytes = new Uint8Array(fits ?? new ArrayBuffer(Math.min(READ_WHOLE_BYTES, Math.ceil(size * 1.125))), 0, size);
    let bounce = this.bounces.pop() ?? new ArrayBuffer(BOUNCE_BYTES);
    const reader = blob.stream().getReader({ mode: "byob" });
    let at = 0;
    try {
      while (at < size) {
        const { value, done } = await reader.read(new Uint8Array(bounce, 0, Math.min(BOUNCE_BYTES, size - at)));
        // The bounce buffer back under a new name (the one passed in is detached).
        if (value) bounce = value.buffer;
        if (done) break;
        bytes.set(value, at);
        at += value.byteLength;
      }
    } finally {
      reader.releaseLock();
      // A read that failed may leave it detached (no bytes).
      if (bounce.byteLength > 0) this.bounces.push(bounce);
    }
    if (at < size) throw new Error(`the file ended after ${at} of its ${size} bytes (changed since it was chosen)`);
    return bytes;
  }

  /** A file's bytes no longer read: its buffer taken by a later file. */
  giveBack(bytes: Uint8Array<ArrayBuffer>): void {
    this.free.push(bytes.buffer);
    // A few kept: a run whose files keep growing would otherwise keep every buffer it outgrew.
    if (this.free.length > KEPT_BUFFERS) {
      const smallest = this.free.reduce((a, b) => (b.byteLength < a.byteLength ? b : a));
      this.free.splice(this.free.indexOf(smallest), 1);
    }
  }
}

/**
 * A file read whole: every read is a view of its bytes, which nothing writes once read
 * (readsAreFresh: a reader keeps a tensor's elements in place; the bytes live while any does).
 */
export function wholeFileSource(bytes: Uint8Array, name: string): ByteSource {
  return {
    name,
    size: bytes.length,
    read: (offset, length) => bytes.subarray(offset, Math.max(offset, Math.min(bytes.length, offset + length))),
    readsAreFresh: true,
  };
}
