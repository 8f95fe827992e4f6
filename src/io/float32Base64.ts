/**
 * Float32 values as base64 of their little-endian bytes (numpy's `<f4`): about half the size of
 * decimal text in a link, and what the pytest snippet rebuilds with `numpy.frombuffer`. Written
 * with table lookups rather than btoa and regular expressions: a 16 × 8192 batch in milliseconds.
 */
const STANDARD = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
/** RFC 4648 §5, unpadded: safe in a URL without escaping. */
const URL_SAFE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

export type Base64Alphabet = "standard" | "url";

export function float32ToBase64(values: ArrayLike<number>, alphabet: Base64Alphabet = "standard"): string {
  return bytesToBase64(float32Bytes(values), alphabet);
}

/** Every platform a browser runs on today is little-endian; the DataView path keeps others correct. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export function float32Bytes(values: ArrayLike<number>): Uint8Array {
  if (LITTLE_ENDIAN) return new Uint8Array(Float32Array.from(values).buffer);
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < values.length; i++) view.setFloat32(i * 4, values[i], true);
  return bytes;
}

/** The floats back, or a sentence saying why the text is not float32 data. */
export function base64ToFloat32(text: string, alphabet: Base64Alphabet = "standard"): Float32Array | string {
  const bytes = base64ToBytes(text, alphabet);
  if (typeof bytes === "string") return bytes;
  if (bytes.length % 4 !== 0) return `holds ${bytes.length} bytes, not a whole number of float32 values (4 bytes each)`;
  if (LITTLE_ENDIAN) return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(bytes.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

const ENCODE = { standard: codesOf(STANDARD), url: codesOf(URL_SAFE) };
const DECODE = { standard: lookupOf(STANDARD), url: lookupOf(URL_SAFE) };
const ASCII = new TextDecoder("ascii");

function codesOf(alphabet: string): Uint8Array {
  return Uint8Array.from(alphabet, (c) => c.charCodeAt(0));
}

function lookupOf(alphabet: string): Int16Array {
  const table = new Int16Array(128).fill(-1);
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
  return table;
}

/** Standard base64 is padded with `=`; the URL-safe form is not. */
export function bytesToBase64(bytes: Uint8Array, alphabet: Base64Alphabet = "standard"): string {
  const codes = ENCODE[alphabet];
  const padded = alphabet === "standard";
  const full = Math.floor(bytes.length / 3) * 3;
  const rest = bytes.length - full;
  const out = new Uint8Array((full / 3) * 4 + (rest === 0 ? 0 : padded ? 4 : rest + 1));
  let o = 0;
  for (let i = 0; i < full; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out[o++] = codes[n >> 18];
    out[o++] = codes[(n >> 12) & 63];
    out[o++] = codes[(n >> 6) & 63];
    out[o++] = codes[n & 63];
  }
  if (rest > 0) {
    const n = (bytes[full] << 16) | (rest === 2 ? bytes[full + 1] << 8 : 0);
    out[o++] = codes[n >> 18];
    out[o++] = codes[(n >> 12) & 63];
    if (rest === 2) out[o++] = codes[(n >> 6) & 63];
    if (padded) while (o < out.length) out[o++] = 61; // "="
  }
  return ASCII.decode(out);
}

/** The bytes back, or a sentence saying why the text is not base64 of this alphabet. */
export function base64ToBytes(text: string, alphabet: Base64Alphabet = "standard"): Uint8Array | string {
  let end = text.length;
  if (alphabet === "standard") {
    if (end % 4 !== 0) return "is not valid base64";
    while (end > 0 && end > text.length - 2 && text.charCodeAt(end - 1) === 61) end--;
  }
  if (end % 4 === 1) return alphabet === "standard" ? "is not valid base64" : "is not valid base64url";
  const lookup = DECODE[alphabet];
  const out = new Uint8Array(Math.floor((end * 3) / 4));
  let bits = 0;
  let held = 0;
  let o = 0;
  for (let i = 0; i < end; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? lookup[code] : -1;
    if (value < 0) return alphabet === "standard" ? "is not valid base64" : "is not valid base64url";
    bits = ((bits << 6) | value) & 0xffffff;
    held += 6;
    if (held >= 8) {
      held -= 8;
      out[o++] = (bits >> held) & 255;
    }
  }
  return out;
}
