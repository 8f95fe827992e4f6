import fc from "fast-check";

/**
 * Byte-level mutations of a valid file, shared by the parser fuzz tests: set, insert or delete one
 * byte, or cut the file short, the damage a truncated download or a bad editor does.
 */
export type ByteEdit = [kind: "set" | "insert" | "delete" | "cut", at: number, byte: number];

export function byteEdits(maxLength: number): fc.Arbitrary<ByteEdit[]> {
  return fc.array(
    fc.tuple(
      fc.constantFrom("set", "insert", "delete", "cut"),
      fc.nat(),
      fc.integer({ min: 0, max: 255 }),
    ) as fc.Arbitrary<ByteEdit>,
    { minLength: 1, maxLength },
  );
}

export function mutateBytes(bytes: Uint8Array, changes: ByteEdit[]): Uint8Array {
  let out = Array.from(bytes);
  for (const [kind, at, byte] of changes) {
    const i = out.length === 0 ? 0 : at % out.length;
    if (kind === "set" && out.length > 0) out[i] = byte;
    else if (kind === "insert") out.splice(i, 0, byte);
    else if (kind === "delete") out.splice(i, 1);
    else if (kind === "cut") out = out.slice(0, i);
  }
  return Uint8Array.from(out);
}
