import type { ByteSource } from "./byteSource";

/** Bytes read from the File at a time: a FileReaderSync call costs milliseconds however small the slice. */
const CHUNK_BYTES = 16 * 2 ** 20;
/** Chunks kept: the readers ask for storages near each other (one sample's fields), rarely far back. */
const KEPT_CHUNKS = 4;

/** Bytes `start` to `end` of the blob, read at once (FileReaderSync in a worker; a test reads an array). */
export type ReadSlice = (start: number, end: number) => ArrayBuffer;

/**
 * A chosen `File` (or `Blob`) read by slices in a page's worker, as the CLI reads a file by positioned
 * reads (src/cli/fileSource.ts): the `File` is never read whole, so a dump costs what its pickle and a
 * window of storages cost (with openDump's `streamed`, a window of samples). Each read of a `Blob`
 * slice is a round trip to the browser's file thread (5 to 40 ms here), and a dump's storages are
 * thousands of small records, so the file is read in 16 MiB chunks, the last four kept (64 MiB):
 * 8,713 reads of a 186 MB dump became 12 (3.5 s of reading became 0.7 s). Streamed (openDump's
 * `streamed`) in the run view, ppo512 peaked at 551 MB instead of 777 MB but its settings took 36 s
 * of the worker's CPU instead of 2.5 s (docs/dumps.md): the step view still reads up to 200 MiB whole. `FileReaderSync` exists
 * only in dedicated workers; a file changed or deleted since it was chosen fails there with the
 * browser's reason (NotReadableError, NotFoundError), which the readers turn into a refusal naming
 * the file.
 */
export function blobSource(
  blob: Blob,
  name: string,
  readSlice: ReadSlice = fileReaderSlices(blob),
): ByteSource & { readonly reads: number } {
  const kept = new Map<number, Uint8Array>();
  let reads = 0;
  const slice = (start: number, end: number): Uint8Array => {
    reads++;
    return new Uint8Array(readSlice(start, end));
  };
  const chunk = (index: number): Uint8Array => {
    const known = kept.get(index);
    if (known) {
      // Most recently used last: Map keeps insertion order.
      kept.delete(index);
      kept.set(index, known);
      return known;
    }
    const start = index * CHUNK_BYTES;
    const bytes = slice(start, Math.min(blob.size, start + CHUNK_BYTES));
    kept.set(index, bytes);
    if (kept.size > KEPT_CHUNKS) kept.delete(kept.keys().next().value as number);
    return bytes;
  };
  return {
    name,
    size: blob.size,
    get reads() {
      return reads;
    },
    // A chunk is never handed out: a read gets a slice of it, or new bytes.
    readsAreFresh: true,
    read(offset, length) {
      const end = Math.min(blob.size, offset + length);
      if (end <= offset) return new Uint8Array(0);
      // A read wider than a few chunks (a whole big storage) goes straight to the file.
      if (end - offset > 2 * CHUNK_BYTES) return slice(offset, end);
      const first = Math.floor(offset / CHUNK_BYTES);
      const last = Math.floor((end - 1) / CHUNK_BYTES);
      if (first === last) return chunk(first).slice(offset - first * CHUNK_BYTES, end - first * CHUNK_BYTES);
      const out = new Uint8Array(end - offset);
      for (let index = first; index <= last; index++) {
        const bytes = chunk(index);
        const from = Math.max(offset, index * CHUNK_BYTES);
        const to = Math.min(end, (index + 1) * CHUNK_BYTES);
        out.set(bytes.subarray(from - index * CHUNK_BYTES, to - index * CHUNK_BYTES), from - offset);
      }
      // Fewer bytes only where the file ends (a chunk cut short: the file shrank since it was chosen).
      return out;
    },
  };
}

/** A dedicated worker's synchronous reader (io is typed without the worker's library). */
declare const FileReaderSync: new () => { readAsArrayBuffer(blob: Blob): ArrayBuffer };

/** The blob's slices read by a worker's `FileReaderSync`, made when first read (a test passes its own). */
export function fileReaderSlices(blob: Blob): ReadSlice {
  let reader: InstanceType<typeof FileReaderSync> | null = null;
  return (start, end) => {
    reader ??= new FileReaderSync();
    return reader.readAsArrayBuffer(blob.slice(start, end));
  };
}
