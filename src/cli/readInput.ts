import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";

/** Input beyond the byte limit; `size` is known when the file system told it before reading. */
export class InputTooLargeError extends Error {
  readonly size: number | undefined;

  constructor(limit: number, size?: number) {
    super(`more than ${limit} bytes`);
    this.name = "InputTooLargeError";
    this.size = size;
  }
}

/**
 * Reads a stream to its end, but never more than `limit` bytes: as soon as the limit is passed it
 * stops (leaving the loop destroys the stream) and rejects, so `cat /dev/zero | scanlab check -`
 * ends at once instead of growing without bound.
 */
export async function readBounded(stream: AsyncIterable<Uint8Array | string>, limit: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk;
    total += bytes.length;
    if (total > limit) throw new InputTooLargeError(limit);
    chunks.push(bytes);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/**
 * A file's bytes, refused before reading when the file system says it is too big. The read itself
 * is bounded too: a device or a pipe (`/dev/zero`, `<(…)`) has no size to check.
 */
export async function readFileBounded(path: string, limit: number): Promise<Uint8Array> {
  const info = await stat(path);
  if (info.isDirectory()) throw new Error("it is a directory");
  if (info.isFile() && info.size > limit) throw new InputTooLargeError(limit, info.size);
  return readBounded(createReadStream(path), limit);
}
