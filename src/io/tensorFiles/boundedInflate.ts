import { Inflate } from "fflate";

/** Compressed bytes handed to the inflater at a time: deflate expands at most 1032:1, so one push yields ≤ 16.5 MB. */
const PUSH_BYTES = 16 * 1024;

class PastStatedSize extends Error {}

/**
 * Inflates a raw deflate stream that the zip directory says holds exactly `size` bytes, and stops
 * as soon as it yields more: a 4 MB record that claims 16 bytes costs one push, not the 4 GB it
 * would inflate to. (fflate's one-shot `inflateSync` with a fixed `out` buffer keeps decoding past
 * its end.) `fail` names the record; it is called for a damaged, short or overlong stream.
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
  return out;
}
