/**
 * Float32 values as base64 of their little-endian bytes (numpy's `<f4`): about half the size of
 * decimal text in a link, and what the pytest snippet rebuilds with `numpy.frombuffer`.
 */
export function float32ToBase64(values: ArrayLike<number>): string {
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < values.length; i++) view.setFloat32(i * 4, values[i], true);
  return bytesToBase64(bytes);
}

/** The floats back, or a sentence saying why the text is not float32 data. */
export function base64ToFloat32(text: string): Float32Array | string {
  const bytes = base64ToBytes(text);
  if (typeof bytes === "string") return bytes;
  if (bytes.length % 4 !== 0) return `holds ${bytes.length} bytes, not a whole number of float32 values (4 bytes each)`;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(bytes.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

export function bytesToBase64(bytes: Uint8Array): string {
  // btoa takes a binary string; build it in slices so a long row does not overflow the call stack.
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function base64ToBytes(text: string): Uint8Array | string {
  if (!BASE64.test(text) || text.length % 4 !== 0) return "is not valid base64";
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
