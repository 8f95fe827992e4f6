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
 * The chunk of the storage read last, for sources that read into a buffer (ByteSource.readInto):
 * one buffer for every storage, marked with the storage it holds. A dump of 512 samples read a
 * fresh 64 KiB chunk for each sample's prompt (32 MB of page faults for 2 MB of prompts).
 */
const shared = { bytes: new Uint8Array(0), owner: null as object | null, at: 0, length: 0 };

/**
 * Reads of a source's range that ends at `end`, where many small views share one storage (150,000
 * samples' one-token rows of a flat storage): a read of less than a quarter chunk takes a whole
 * chunk from its offset and the next reads inside it are copied out of it, instead of a system call
 * and a fresh buffer each. Reads that are large, or that reach the range's end anyway, and every
 * read of a source already in memory, go straight to the source. Every read is a new array where
 * the source's are (readsAreFresh): a copy out of the chunk.
 */
export function chunkedReads(source: ByteSource, end: number): (offset: number, length: number) => Uint8Array {
  if (!source.readsAreFresh) return (offset, length) => source.read(offset, length);
  const readInto = source.readInto?.bind(source);
  if (readInto) return sharedChunkReads(source, readInto, end);
  let chunk: Uint8Array | null = null;
  let chunkAt = 0;
  return (offset, length) => {
    if (chunk !== null && offset >= chunkAt && offset + length <= chunkAt + chunk.length)
      return chunk.slice(offset - chunkAt, offset - chunkAt + length);
    if (length * 4 > CHUNK_BYTES || offset + length >= end) return source.read(offset, length);
    const read = source.read(offset, Math.min(CHUNK_BYTES, end - offset));
    // A plain Uint8Array over the read, so that slice copies (a Buffer's slice is a view).
    chunk = new Uint8Array(read.buffer, read.byteOffset, read.length);
    chunkAt = offset;
    return chunk.slice(0, length);
  };
}

/** chunkedReads with its chunk read into the one shared buffer (a plain Uint8Array: its slice copies). */
function sharedChunkReads(
  source: ByteSource,
  readInto: (offset: number, target: Uint8Array) => number,
  end: number,
): (offset: number, length: number) => Uint8Array {
  const owner = {};
  return (offset, length) => {
    if (shared.owner === owner && offset >= shared.at && offset + length <= shared.at + shared.length)
      return shared.bytes.slice(offset - shared.at, offset - shared.at + length);
    if (length * 4 > CHUNK_BYTES || offset + length >= end) return source.read(offset, length);
    if (shared.bytes.length < CHUNK_BYTES) shared.bytes = new Uint8Array(CHUNK_BYTES);
    // Marked as no one's while it is read: a read that throws leaves no chunk behind.
    shared.owner = null;
    shared.length = readInto(offset, shared.bytes.subarray(0, Math.min(CHUNK_BYTES, end - offset)));
    shared.at = offset;
    shared.owner = owner;
    return shared.bytes.slice(0, Math.min(length, shared.length));
  };
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
