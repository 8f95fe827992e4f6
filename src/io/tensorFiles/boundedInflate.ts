import { Inflate } from "fflate";

/** Compressed bytes handed to the inflater at a time: deflate expands at most 1032:1, so one push yields ≤ 16.5 MB. */
const PUSH_BYTES = 16 * 1024;

class PastStatedSize extends Error {}

/**
 * What fflate's `Inflate` keeps between pushes (fflate 0.8, pinned in package-lock): `p`, the input it
 * has not consumed, from the byte holding bit `s.p & 7` of the stream on. fflate has no public way to
 * say where a stream ended, and bytes after the final block would otherwise be read without a word;
 * boundedInflate.test.ts fails if these fields change meaning.
 */
interface InflateState {
  p: Uint8Array;
  s: { p?: number };
}

/** Input bytes after the end of a finished stream (the last partial byte of the stream excluded). */
function bytesAfterEnd(stream: Inflate): number {
  const { p, s } = stream as unknown as InflateState;
  return p.length - (((s.p ?? 0) & 7) === 0 ? 0 : 1);
}

/**
 * Inflates a raw deflate stream that the zip directory says holds exactly `size` bytes, and stops
 * as soon as it yields more: a 4 MB record that claims 16 bytes costs one push, not the 4 GB it
 * would inflate to. (fflate's one-shot `inflateSync` with a fixed `out` buffer keeps decoding past
 * its end.) `fail` names the record; it is called for a damaged, short or overlong stream, and for
 * bytes after the stream's final block, which no reader would use.
 */
export function boundedInflate(compressed: Uint8Array, size: number, fail: (detail: string) => never): Uint8Array {
  const out = new Uint8Array(size);
  let filled = 0;
  let ended = false;
  const stream = new Inflate((chunk, final) => {
    if (filled + chunk.length > size) throw new PastStatedSize();
    out.set(chunk, filled);
    filled += chunk.length;
    if (final) ended = true;
  });
  try {
    for (let p = 0; p < compressed.length && !ended; p += PUSH_BYTES) {
      stream.push(compressed.subarray(p, p + PUSH_BYTES), p + PUSH_BYTES >= compressed.length);
    }
    if (compressed.length === 0) stream.push(compressed, true);
  } catch (error) {
    if (error instanceof PastStatedSize) return fail(`inflates to more than the ${size} bytes the directory states`);
    return fail(`the deflate stream is damaged (${error instanceof Error ? error.message : String(error)})`);
  }
  if (filled !== size) return fail(`inflates to ${filled} bytes, the directory states ${size}`);
  const after = bytesAfterEnd(stream);
  if (after > 0) {
    return fail(
      `holds ${after} bytes after the deflate stream's end (from byte ${compressed.length - after} of its ${compressed.length} compressed bytes)`,
    );
  }
  return out;
}
