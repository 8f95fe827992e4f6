import type { ByteSource } from "../../io/tensorFiles/byteSource";

/**
 * A chosen file read by slices in the run view's worker: the `File` is never read whole, so a
 * 1.5 GB dump costs what its pickle and one window of storages cost. `FileReaderSync` exists only
 * in workers; a file changed or deleted since it was chosen fails here with the browser's reason.
 */
export function blobSource(blob: Blob, name: string): ByteSource {
  const reader = new FileReaderSync();
  return {
    name,
    size: blob.size,
    read: (offset, length) =>
      new Uint8Array(reader.readAsArrayBuffer(blob.slice(offset, Math.min(blob.size, offset + length)))),
  };
}
