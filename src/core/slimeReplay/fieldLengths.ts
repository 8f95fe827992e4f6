/**
 * A sample or a stored row whose per-token fields are read from the file when they are asked for
 * (a dump streamed from its file: src/io/slimeDump/streamedFields.ts) says here how many tokens each
 * of those fields holds, so that a length or a presence costs no read. `s.lossMask.length` read the
 * mask from the file; asked this way in every step that needs only the length, big1024's settings,
 * replay and bit comparison read 47 fields a sample instead of 92 (docs/dumps.md).
 */
export const FIELD_LENGTHS: unique symbol = Symbol("field lengths");

/** An object that may say its fields' lengths: the fields listed hold that many tokens, without being read. */
export interface WithFieldLengths {
  [FIELD_LENGTHS]?: Readonly<Record<string, number>>;
}

/**
 * `o[key]`'s length, or undefined where it is absent (undefined or null): from the lengths `o` says
 * (FIELD_LENGTHS, its own or its prototype's), else from the field itself.
 */
export function lengthOf<T extends object>(o: T, key: keyof T & string): number | undefined {
  const known = (o as WithFieldLengths)[FIELD_LENGTHS];
  if (known && key in known) return known[key];
  return (o[key] as ArrayLike<number> | null | undefined)?.length;
}

/** A sample's response length: its loss mask's length, read off FIELD_LENGTHS where it says it. */
export function tokensOf(s: { lossMask: ArrayLike<number> }): number {
  return lengthOf(s, "lossMask") as number;
}
