import { decodeElements, ITEM_SIZE, type StoredType } from "./elementTypes";
import type { TensorData } from "./tensorTypes";

/**
 * A file read by random access: the readers ask for the bytes they need (the zip's directory, the
 * pickle, one storage) instead of holding the whole file. Synchronous on purpose: Node's positioned
 * `readSync` and a worker's `FileReaderSync` both are, so the readers stay plain functions.
 */
export interface ByteSource {
  /** The file's name, first in every message. */
  readonly name: string;
  readonly size: number;
  /** `length` bytes from `offset`; fewer only where the file ends. */
  read(offset: number, length: number): Uint8Array;
  /**
   * Every read returns a new array no one else holds (a positioned read, a slice of a Blob): a
   * reader may then keep a typed view of it as a tensor's elements instead of copying them.
   */
  readonly readsAreFresh?: boolean;
  /**
   * Reads from `offset` into `target` (fewer bytes only where the file ends) and says how many: a
   * read copied out of at once reuses one buffer (chunkedReads), where a fresh one costs a page
   * fault every 4 KiB.
   */
  readInto?(offset: number, target: Uint8Array): number;
}

/** A file already in memory (a test, standard input). */
export function bytesSource(bytes: Uint8Array, name: string): ByteSource {
  return {
    name,
    size: bytes.length,
    read: (offset, length) => bytes.subarray(offset, Math.min(bytes.length, offset + length)),
  };
}

/** Bytes read at once for the small views of one storage (chunkedReads). */
const CHUNK_BYTES = 1 << 16;

/**
 * The chunks of the storages read last, for sources that read into a buffer (ByteSource.readInto):
 * a few buffers for every storage of every file, each marked with the storage it holds, the one
 * used longest ago reused. A dump of 512 samples read a fresh 64 KiB chunk for each sample's prompt
 * (32 MB of page faults for 2 MB of prompts); one buffer for all was read again at every field of
 * a sample (its fields are views of as many storages): 60,000 samples read 480,000 chunks, 31 GB.
 */
const KEPT_CHUNKS = 16;
interface Chunk {
  bytes: Uint8Array;
  owner: object | null;
  at: number;
  length: number;
  used: number;
}
const chunks: Chunk[] = [];
let chunkUses = 0;

/** What chunkedReads gives: a storage's bytes, and its elements decoded. */
export interface ChunkedReads {
  /** `length` bytes from `offset`: a new array no one else holds where the source's reads are (readsAreFresh). */
  (offset: number, length: number): Uint8Array;
  /**
   * `count` elements of `stored` from byte `offset`, in an array of their own: a small read is
   * copied out of the chunk into it at once (no array of bytes in between, whose buffer the
   * decoding would then have to make), a large one decoded in place where the source's reads are fresh.
   */
  elements(offset: number, count: number, stored: StoredType): TensorData;
}

/**
 * Reads of a source's range that ends at `end`, where many small views share one storage (150,000
 * samples' one-token rows of a flat storage): a read of less than a quarter chunk takes a whole
 * chunk from its offset and the next reads inside it are copied out of it, instead of a system call
 * and a fresh buffer each. Reads that are large, or that reach the range's end anyway, and every
 * read of a source already in memory, go straight to the source. Every read is a new array where
 * the source's are (readsAreFresh): a copy out of the chunk.
 */
export function chunkedReads(source: ByteSource, end: number): ChunkedReads {
  const direct = (offset: number, length: number) => source.read(offset, length);
  if (!source.readsAreFresh)
    return Object.assign(direct, {
      elements: (offset: number, count: number, stored: StoredType) =>
        decodeElements(source.read(offset, count * ITEM_SIZE[stored]), stored, count, false),
    });
  const readInto = source.readInto?.bind(source);
  const inChunk = readInto ? keptChunkReads(readInto, end) : ownChunkReads(source, end);
  const read = (offset: number, length: number): Uint8Array => {
    const bytes = inChunk(offset, length);
    return bytes === null ? source.read(offset, length) : bytes.slice();
  };
  return Object.assign(read, {
    elements(offset: number, count: number, stored: StoredType): TensorData {
      const length = count * ITEM_SIZE[stored];
      const bytes = inChunk(offset, length);
      if (bytes === null) return decodeElements(source.read(offset, length), stored, count, true);
      // Cut short where the file ends (it changed since it was opened): decoded as a short read of its own is.
      if (bytes.length < length) return decodeElements(bytes.slice(), stored, count, true);
      return decodeElements(bytes, stored, count, false);
    },
  });
}

/**
 * The bytes at `offset` inside the chunk that holds them (read first where they are small and not
 * there yet), valid until the next read: null for a read that goes straight to the source.
 */
type InChunk = (offset: number, length: number) => Uint8Array | null;

/** One fresh chunk for this storage (a source that cannot read into a buffer). */
function ownChunkReads(source: ByteSource, end: number): InChunk {
  let chunk: Uint8Array | null = null;
  let chunkAt = 0;
  return (offset, length) => {
    if (chunk !== null && offset >= chunkAt && offset + length <= chunkAt + chunk.length)
      return chunk.subarray(offset - chunkAt, offset - chunkAt + length);
    if (length * 4 > CHUNK_BYTES || offset + length >= end) return null;
    const read = source.read(offset, Math.min(CHUNK_BYTES, end - offset));
    // A plain Uint8Array over the read, so that slice copies (a Buffer's slice is a view).
    chunk = new Uint8Array(read.buffer, read.byteOffset, read.length);
    chunkAt = offset;
    return chunk.subarray(0, Math.min(length, chunk.length));
  };
}

/** The chunk read into one of the kept buffers (plain Uint8Arrays: their slice copies). */
function keptChunkReads(readInto: (offset: number, target: Uint8Array) => number, end: number): InChunk {
  const owner = {};
  let mine: Chunk | null = null;
  return (offset, length) => {
    const held = mine;
    if (held !== null && held.owner === owner && offset >= held.at && offset + length <= held.at + held.length) {
      held.used = ++chunkUses;
      return held.bytes.subarray(offset - held.at, offset - held.at + length);
    }
    if (length * 4 > CHUNK_BYTES || offset + length >= end) return null;
    const chunk = held !== null && held.owner === owner ? held : leastRecentlyUsed();
    // Marked as no one's while it is read: a read that throws leaves no chunk behind.
    chunk.owner = null;
    chunk.length = readInto(offset, chunk.bytes.subarray(0, Math.min(CHUNK_BYTES, end - offset)));
    chunk.at = offset;
    chunk.owner = owner;
    chunk.used = ++chunkUses;
    mine = chunk;
    return chunk.bytes.subarray(0, Math.min(length, chunk.length));
  };
}

function leastRecentlyUsed(): Chunk {
  if (chunks.length < KEPT_CHUNKS) {
    const chunk = { bytes: new Uint8Array(CHUNK_BYTES), owner: null, at: 0, length: 0, used: 0 };
    chunks.push(chunk);
    return chunk;
  }
  let oldest = chunks[0];
  for (const chunk of chunks) if (chunk.used < oldest.used) oldest = chunk;
  return oldest;
}

/**
 * A file in memory read as a file on disk is (src/cli/fileSource.ts): every read a fresh copy
 * (readsAreFresh), so the paths only a positioned read takes (chunked reads, elements used in place)
 * are tested without a file. `swap` changes what later reads see (a file that changes or ends while
 * it is read).
 */
export function freshBytesSource(bytes: Uint8Array, name: string): ByteSource & { swap(next: Uint8Array): void } {
  let current = bytes;
  return {
    name,
    get size() {
      return bytes.length;
    },
    read: (offset, length) => current.slice(offset, Math.min(current.length, offset + length)),
    readsAreFresh: true,
    readInto(offset, target) {
      const part = current.subarray(offset, Math.min(current.length, offset + target.length));
      target.set(part);
      return part.length;
    },
    swap(next) {
      current = next;
    },
  };
}
