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
): Promise<ByteSource & { release?(): void; chunks?: ChunkedFile }> {
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
  if (!buffers) return chunkedFileSource(await readChunks(blob, onBytes), blob.size, name);
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

/**
 * Bytes of a file read whole by openBlob (without `buffers`) per chunk. Read in one buffer, ppo512's
 * 195 MB were held whole until the worker's next major collection after its fields were copied out
 * (runWorker's ownFields), beside those copies (142 MB): the renderer's peak of the read. Read in
 * chunks, each chunk's fields are copied out and the chunk let go before the next (ChunkedFile.drop).
 */
export const WHOLE_CHUNK_BYTES = 8 * 2 ** 20;

/** Chunks read at once (readChunks). */
const READS_IN_FLIGHT = 4;

/** A file read whole in chunks of WHOLE_CHUNK_BYTES (the last shorter); a dropped chunk is null. */
export interface ChunkedFile {
  readonly chunks: (Uint8Array<ArrayBuffer> | null)[];
  /**
   * The chunk no longer read: let go, its memory given back at a collection once nothing holds a view
   * of it. (Detached by ArrayBuffer's transfer(0), Chromium gave its memory back no sooner, and the
   * worker's collector, told of that much less memory, came later: the renderer peaked at 664–687 MB.)
   */
  drop(index: number): void;
}

/**
 * The blob's bytes, a chunk at a time (one asynchronous read each, a few in flight at once: read one
 * after another, each read's round trip to the browser's file thread waited on a busy machine),
 * telling the bytes read so far.
 */
export async function readChunks(blob: Blob, onBytes?: (read: number) => void): Promise<ChunkedFile> {
  const count = Math.ceil(blob.size / WHOLE_CHUNK_BYTES);
  const chunks: (Uint8Array<ArrayBuffer> | null)[] = new Array(count).fill(null);
  let next = 0;
  let read = 0;
  const readNext = async (): Promise<void> => {
    while (next < count) {
      const index = next++;
      const at = index * WHOLE_CHUNK_BYTES;
      const end = Math.min(blob.size, at + WHOLE_CHUNK_BYTES);
      const bytes = new Uint8Array(await blob.slice(at, end).arrayBuffer());
      if (bytes.length !== end - at)
        throw new Error(`the file ended inside its bytes ${at}–${end} of ${blob.size} (changed since it was chosen)`);
      chunks[index] = bytes;
      read += bytes.length;
      onBytes?.(read);
    }
  };
  await Promise.all(Array.from({ length: Math.min(READS_IN_FLIGHT, count) }, readNext));
  return {
    chunks,
    drop: (index) => {
      chunks[index] = null;
    },
  };
}

/**
 * A file read whole in chunks (readChunks): a read inside one chunk is a view of it, as
 * wholeFileSource's are of the whole file (readsAreFresh: nothing writes the bytes once read); a
 * read across chunks is a copy. Not read once a chunk is dropped.
 */
export function chunkedFileSource(file: ChunkedFile, size: number, name: string): ByteSource & { chunks: ChunkedFile } {
  const chunkOf = (index: number) => {
    const chunk = file.chunks[index];
    if (!chunk) throw new Error(`${name}: bytes ${index * WHOLE_CHUNK_BYTES}… were let go and read again`);
    return chunk;
  };
  return {
    name,
    size,
    read: (offset, length) => {
      const start = Math.max(0, Math.min(size, offset));
      const end = Math.max(start, Math.min(size, offset + length));
      const first = Math.floor(start / WHOLE_CHUNK_BYTES);
      const from = start - first * WHOLE_CHUNK_BYTES;
      if (end - first * WHOLE_CHUNK_BYTES <= WHOLE_CHUNK_BYTES)
        return chunkOf(first).subarray(from, from + end - start);
      const out = new Uint8Array(end - start);
      for (let at = start; at < end; ) {
        const index = Math.floor(at / WHOLE_CHUNK_BYTES);
        const within = at - index * WHOLE_CHUNK_BYTES;
        const part = chunkOf(index).subarray(within, Math.min(WHOLE_CHUNK_BYTES, within + end - at));
        out.set(part, at - start);
        at += part.length;
      }
      return out;
    },
    readsAreFresh: true,
    chunks: file,
  };
}
