import type { ByteSource } from "../../io/tensorFiles/byteSource";

/** Bytes read from the File at a time: a FileReaderSync call costs milliseconds however small the slice. */
const CHUNK_BYTES = 16 * 2 ** 20;
/** Chunks kept: the readers ask for storages near each other (one sample's fields), rarely far back. */
const KEPT_CHUNKS = 4;
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
export async function openBlob(blob: Blob, name: string): Promise<ByteSource> {
  if (blob.size === 0 || blob.size > READ_WHOLE_BYTES) return blobSource(blob, name);
  return wholeFileSource(new Uint8Array(await blob.arrayBuffer()), name);
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
 * A chosen file above READ_WHOLE_BYTES read by slices in the run view's worker (and each step of a
 * run folder): the `File` is never read whole, so a 1.5 GB dump costs what its pickle and a window of storages cost. Each read of a `Blob` slice is
 * a round trip to the browser's file thread (5 to 40 ms here), and a dump's storages are
 * thousands of small records, so the file is read in 16 MiB chunks, the last four kept (64 MiB):
 * 8,713 reads of a 186 MB dump became 12 (3.5 s of reading became 0.7 s). `FileReaderSync` exists only in workers; a file changed or deleted since it was
 * chosen fails here with the browser's reason (NotReadableError, NotFoundError).
 */
export function blobSource(blob: Blob, name: string): ByteSource {
  const reader = new FileReaderSync();
  const kept = new Map<number, Uint8Array>();
  const chunk = (index: number): Uint8Array => {
    const known = kept.get(index);
    if (known) {
      // Most recently used last: Map keeps insertion order.
      kept.delete(index);
      kept.set(index, known);
      return known;
    }
    const start = index * CHUNK_BYTES;
    const bytes = new Uint8Array(reader.readAsArrayBuffer(blob.slice(start, Math.min(blob.size, start + CHUNK_BYTES))));
    kept.set(index, bytes);
    if (kept.size > KEPT_CHUNKS) kept.delete(kept.keys().next().value as number);
    return bytes;
  };
  return {
    name,
    size: blob.size,
    // A chunk is never handed out: a read gets a slice of it, or new bytes.
    readsAreFresh: true,
    read(offset, length) {
      const end = Math.min(blob.size, offset + length);
      if (end <= offset) return new Uint8Array(0);
      // A read wider than a few chunks (a whole big storage) goes straight to the file.
      if (end - offset > 2 * CHUNK_BYTES) return new Uint8Array(reader.readAsArrayBuffer(blob.slice(offset, end)));
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
      return out;
    },
  };
}
