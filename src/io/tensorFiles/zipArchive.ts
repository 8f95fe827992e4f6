import { inflateSync } from "fflate";
import { TENSOR_FILE_LIMITS } from "./limits";
import { at, TensorFileError } from "./tensorFileError";

/**
 * A zip archive read from its central directory, the only place torch writes the real sizes
 * (its local headers carry sizes 0 and a data descriptor). Entries are found by name, never by
 * position, and read only when asked for: stored ones as a view of the file, deflated ones
 * (numpy's `savez_compressed`) inflated by fflate into a buffer of exactly the stated size.
 * Encrypted, multi-disk and other compression methods are refused by name.
 */
export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  /** Where the entry's local header starts. */
  headerOffset: number;
}

export interface ZipArchive {
  entries: Map<string, ZipEntry>;
  read(entry: ZipEntry): Uint8Array;
}

const EOCD = 0x06054b50;
const MAX_DEFLATE_RATIO = 1032;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5);
}

export function readZip(bytes: Uint8Array, source: string): ZipArchive {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fail = (byte: number, detail: string): never => {
    throw new TensorFileError(at("", byte), detail, source);
  };
  const u16 = (o: number) =>
    o + 2 <= bytes.length ? view.getUint16(o, true) : fail(o, "the file ends inside a zip header");
  const u32 = (o: number) =>
    o + 4 <= bytes.length ? view.getUint32(o, true) : fail(o, "the file ends inside a zip header");
  const u64 = (o: number) => {
    const value = u32(o) + u32(o + 4) * 2 ** 32;
    return Number.isSafeInteger(value) ? value : fail(o, "a zip64 size or offset beyond 2^53");
  };

  const eocd = findEndRecord(bytes, view);
  if (eocd < 0) {
    return fail(
      bytes.length,
      "no zip end-of-central-directory record: the file is truncated (an interrupted copy or save?)",
    );
  }
  if (u16(eocd + 4) !== 0 || u16(eocd + 6) !== 0) fail(eocd + 4, "a multi-disk zip archive is not supported");
  let count = u16(eocd + 10);
  let directorySize = u32(eocd + 12);
  let directoryOffset = u32(eocd + 16);
  if (count === 0xffff || directorySize === 0xffffffff || directoryOffset === 0xffffffff) {
    const locator = eocd - 20;
    if (locator < 0 || u32(locator) !== ZIP64_LOCATOR) fail(eocd, "a zip64 archive without its zip64 locator");
    const record = u64(locator + 8);
    if (record + 56 > bytes.length || u32(record) !== ZIP64_EOCD) fail(locator + 8, "the zip64 end record is missing");
    count = u64(record + 32);
    directorySize = u64(record + 40);
    directoryOffset = u64(record + 48);
  }
  if (count > TENSOR_FILE_LIMITS.maxZipEntries) {
    fail(eocd + 10, `the archive claims ${count} entries, above the limit of ${TENSOR_FILE_LIMITS.maxZipEntries}`);
  }
  if (directoryOffset + directorySize > bytes.length) {
    fail(
      eocd + 16,
      `the central directory (${directorySize} bytes at ${directoryOffset}) runs past the end of the file`,
    );
  }

  const entries = new Map<string, ZipEntry>();
  let p = directoryOffset;
  for (let i = 0; i < count; i++) {
    if (u32(p) !== CENTRAL) fail(p, `central directory entry ${i} of ${count} is missing (the archive is damaged)`);
    const flags = u16(p + 8);
    const method = u16(p + 10);
    let compressedSize = u32(p + 20);
    let size = u32(p + 24);
    const nameLength = u16(p + 28);
    const extraLength = u16(p + 30);
    const commentLength = u16(p + 32);
    let headerOffset = u32(p + 42);
    const nameStart = p + 46;
    if (nameStart + nameLength + extraLength > bytes.length) fail(p, "a central directory entry runs past the end");
    const name = decodeName(bytes.subarray(nameStart, nameStart + nameLength), p, source);
    // zip64 sizes and offset sit in extra field 0x0001, in this order, only for the fields set to all ones.
    const zip64 = findExtra(view, nameStart + nameLength, extraLength, 0x0001);
    if (zip64 >= 0) {
      let q = zip64;
      if (size === 0xffffffff) {
        size = u64(q);
        q += 8;
      }
      if (compressedSize === 0xffffffff) {
        compressedSize = u64(q);
        q += 8;
      }
      if (headerOffset === 0xffffffff) headerOffset = u64(q);
    }
    if (name === "") fail(p, `central directory entry ${i} has an empty name`);
    const where = `record ${name}`;
    if (flags & 1) throw new TensorFileError(where, "the entry is encrypted", source);
    if (method !== 0 && method !== 8) {
      throw new TensorFileError(where, `compression method ${method} is not stored (0) or deflate (8)`, source);
    }
    if (method === 0 && compressedSize !== size) {
      throw new TensorFileError(
        where,
        `a stored entry with ${compressedSize} bytes in the file but ${size} bytes stated`,
        source,
      );
    }
    if (entries.has(name)) throw new TensorFileError(where, "appears twice in the central directory", source);
    entries.set(name, { name, method, compressedSize, size, headerOffset });
    p = nameStart + nameLength + extraLength + commentLength;
  }

  const read = (entry: ZipEntry): Uint8Array => {
    const where = `record ${entry.name}`;
    const local = entry.headerOffset;
    if (local + 30 > bytes.length || view.getUint32(local, true) !== LOCAL) {
      throw new TensorFileError(
        `${where}, byte ${local}`,
        "its local header is missing (the archive is damaged)",
        source,
      );
    }
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    if (start + entry.compressedSize > bytes.length) {
      throw new TensorFileError(
        `${where}, byte ${start}`,
        `its ${entry.compressedSize} bytes run past the end of the file (${bytes.length} bytes): the file is truncated`,
        source,
      );
    }
    const raw = bytes.subarray(start, start + entry.compressedSize);
    if (entry.method === 0) return raw;
    if (entry.size > TENSOR_FILE_LIMITS.maxFileBytes) {
      throw new TensorFileError(
        where,
        `inflates to ${entry.size} bytes, above the limit of ${TENSOR_FILE_LIMITS.maxFileBytes}`,
        source,
      );
    }
    // Deflate cannot expand more than 1032:1, so a larger claim is a lie told to make us allocate.
    if (entry.size > entry.compressedSize * MAX_DEFLATE_RATIO + 1024) {
      throw new TensorFileError(
        where,
        `claims ${entry.size} bytes from ${entry.compressedSize} compressed, beyond deflate's ${MAX_DEFLATE_RATIO}:1 maximum`,
        source,
      );
    }
    // One byte more than stated: a stream that fills it inflates past its stated size.
    const out = new Uint8Array(entry.size + 1);
    let inflated: Uint8Array;
    try {
      inflated = inflateSync(raw, { out });
    } catch (error) {
      throw new TensorFileError(where, `the deflate stream is damaged (${(error as Error).message})`, source);
    }
    if (inflated.length !== entry.size) {
      throw new TensorFileError(
        where,
        inflated.length > entry.size
          ? `inflates to more than the ${entry.size} bytes the directory states`
          : `inflates to ${inflated.length} bytes, the directory states ${entry.size}`,
        source,
      );
    }
    return inflated.subarray(0, entry.size);
  };
  return { entries, read };
}

/** The end record sits in the last 22 + 65535 bytes (its comment is at most 65535 bytes). */
function findEndRecord(bytes: Uint8Array, view: DataView): number {
  const lowest = Math.max(0, bytes.length - 22 - 0xffff);
  for (let p = bytes.length - 22; p >= lowest; p--) {
    if (view.getUint32(p, true) === EOCD && p + 22 + view.getUint16(p + 20, true) === bytes.length) return p;
  }
  return -1;
}

function findExtra(view: DataView, start: number, length: number, id: number): number {
  let p = start;
  while (p + 4 <= start + length) {
    const size = view.getUint16(p + 2, true);
    if (view.getUint16(p, true) === id) return p + 4;
    p += 4 + size;
  }
  return -1;
}

function decodeName(bytes: Uint8Array, byte: number, source: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new TensorFileError(at("", byte), "an entry name is not valid UTF-8", source);
  }
}
