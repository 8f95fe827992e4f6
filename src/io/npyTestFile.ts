/**
 * Writes a `.npy` file as numpy's `np.save` does (header padded with spaces to a multiple of 64
 * bytes, ending in a newline), for tests that need files of every kind. `header` replaces the
 * dict text, to write broken files.
 */
export function writeNpy(
  values: ArrayLike<number>,
  shape: number[],
  options: { descr?: string; version?: 1 | 2 | 3; header?: string } = {},
): Uint8Array {
  const { descr = "<f4", version = 1 } = options;
  const dims = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(", ")})`;
  const dict = options.header ?? `{'descr': '${descr}', 'fortran_order': False, 'shape': ${dims}, }`;
  const prefix = version === 1 ? 10 : 12;
  const padding = " ".repeat((64 - ((prefix + dict.length + 1) % 64)) % 64);
  const padded = `${dict}${padding}\n`;
  const header = new TextEncoder().encode(padded);
  const itemSize = descr.endsWith("8") ? 8 : 4;
  const out = new Uint8Array(prefix + header.length + values.length * itemSize);
  const view = new DataView(out.buffer);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, version, 0]);
  if (version === 1) view.setUint16(8, header.length, true);
  else view.setUint32(8, header.length, true);
  out.set(header, prefix);
  const little = !descr.startsWith(">");
  for (let i = 0; i < values.length; i++) {
    const at = prefix + header.length + i * itemSize;
    if (itemSize === 4) view.setFloat32(at, values[i], little);
    else view.setFloat64(at, values[i], little);
  }
  return out;
}
