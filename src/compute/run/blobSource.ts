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
export async function openBlob(blob: Blob, name: string, onBytes?: (read: number) => void): Promise<ByteSource> {
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
  const source = wholeFileSource(new Uint8Array(await blob.arrayBuffer()), name);
  onBytes?.(blob.size);
  return source;
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
