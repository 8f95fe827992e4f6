/** Bytes that are not UTF-8: `offset` is where the first invalid sequence starts, `line` counts from 1. */
export class InvalidUtf8Error extends Error {
  readonly offset: number;
  readonly line: number;

  constructor(bytes: Uint8Array, offset: number) {
    const line = lineAt(bytes, offset);
    const shown = Array.from(bytes.subarray(offset, offset + 4), (b) => `0x${b.toString(16).padStart(2, "0")}`);
    super(`not valid UTF-8: invalid byte sequence at byte offset ${offset} (line ${line}): ${shown.join(" ")}`);
    this.name = "InvalidUtf8Error";
    this.offset = offset;
    this.line = line;
  }
}

/**
 * Decodes UTF-8 strictly: a replacement character would silently change a name or a number, so
 * invalid bytes are an error that says where they are. A leading byte-order mark is dropped.
 */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (error) {
    const offset = firstInvalidUtf8(bytes);
    if (offset < 0) throw error;
    throw new InvalidUtf8Error(bytes, offset);
  }
}

/**
 * Offset of the first byte that starts an invalid UTF-8 sequence (RFC 3629: no overlong forms,
 * no surrogates, nothing above U+10FFFF, no truncated sequence), or -1 when all of it is valid.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i];
    if (lead < 0x80) {
      i++;
      continue;
    }
    const rule = sequenceRule(lead);
    if (!rule) return i;
    const [length, low, high] = rule;
    if (i + length > bytes.length) return i;
    const second = bytes[i + 1];
    if (second < low || second > high) return i;
    for (let k = 2; k < length; k++) if ((bytes[i + k] & 0xc0) !== 0x80) return i;
    i += length;
  }
  return -1;
}

/** Sequence length and the allowed range of the second byte for a lead byte (Unicode table 3-7). */
function sequenceRule(lead: number): [number, number, number] | undefined {
  if (lead >= 0xc2 && lead <= 0xdf) return [2, 0x80, 0xbf];
  if (lead === 0xe0) return [3, 0xa0, 0xbf];
  if (lead === 0xed) return [3, 0x80, 0x9f];
  if (lead >= 0xe1 && lead <= 0xef) return [3, 0x80, 0xbf];
  if (lead === 0xf0) return [4, 0x90, 0xbf];
  if (lead >= 0xf1 && lead <= 0xf3) return [4, 0x80, 0xbf];
  if (lead === 0xf4) return [4, 0x80, 0x8f];
  return undefined;
}

function lineAt(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) line++;
  return line;
}
