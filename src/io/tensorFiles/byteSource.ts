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
}

/** A file already in memory (a test, standard input). */
export function bytesSource(bytes: Uint8Array, name: string): ByteSource {
  return {
    name,
    size: bytes.length,
    read: (offset, length) => bytes.subarray(offset, Math.min(bytes.length, offset + length)),
  };
}
