import { boundedInflate } from "./boundedInflate";
import type { ByteSource } from "./byteSource";
import { TENSOR_FILE_LIMITS } from "./limits";
import { at, TensorFileError } from "./tensorFileError";

/**
 * A zip archive read from its central directory, the only place torch writes the real sizes
 * (its local headers carry sizes 0 and a data descriptor), by random access: the end record and
 * the directory are read at open, an entry's bytes only when asked for, so a 1.5 GB dump is never
 * held whole. Stored entries come back as their bytes, deflated ones (numpy's `savez_compressed`)
 * inflated into exactly the stated size. Entries are found by name, never by position; encrypted,
 * multi-disk and other compression methods are refused by name, and so are bytes no entry
 * accounts for (overlapping entries, or data between them that is not a header or descriptor).
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
  /** The entry's bytes, whole. */
  read(entry: ZipEntry): Uint8Array;
  /** Where a stored entry's bytes start in the file, for reading part of it (a tensor's slice of a storage). */
  dataOffset(entry: ZipEntry): number;
}

const EOCD = 0x06054b50;
const MAX_DEFLATE_RATIO = 1032;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
/** An end record, its longest comment, and the zip64 locator and end record before it. */
const TAIL_BYTES = 22 + 0xffff + 20 + 56;
/** Most bytes a local header's extra field and a zip64 data descriptor can take beyond the name. */
const MOST_SLACK = 0xffff + 24;

export function isZip(head: Uint8Array): boolean {
  return head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && (head[2] === 3 || head[2] === 5);
}

/** A little-endian reader over bytes that sit at `base` in the file, failing with the file's byte. */
function reader(bytes: Uint8Array, base: number, fail: (byte: number, detail: string) => never) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const check = (o: number, n: number) => {
    if (o - base < 0 || o - base + n > bytes.length) fail(o, "the file ends inside a zip header");
    return o - base;
  };
  const u16 = (o: number) => view.getUint16(check(o, 2), true);
  const u32 = (o: number) => view.getUint32(check(o, 4), true);
  const u64 = (o: number) => {
    const value = u32(o) + u32(o + 4) * 2 ** 32;
    return Number.isSafeInteger(value) ? value : fail(o, "a zip64 size or offset beyond 2^53");
  };
  return { u16, u32, u64, view };
}

/** A local header as read (30 bytes), reused: its fields are read at once. */
const HEADER = new Uint8Array(30);

export function readZip(source: ByteSource): ZipArchive {
  const name = source.name;
  const fileSize = source.size;
  const fail = (byte: number, detail: string): never => {
    throw new TensorFileError(at("", byte), detail, name);
  };
  const tailStart = Math.max(0, fileSize - TAIL_BYTES);
  const tail = source.read(tailStart, fileSize - tailStart);
  const t = reader(tail, tailStart, fail);
  const eocd = findEndRecord(tail, t.view, tailStart);
  if (eocd < 0) {
    return fail(
      fileSize,
      "no zip end-of-central-directory record: the file is truncated (an interrupted copy or save?)",
    );
  }
  if (t.u16(eocd + 4) !== 0 || t.u16(eocd + 6) !== 0) fail(eocd + 4, "a multi-disk zip archive is not supported");
  let count = t.u16(eocd + 10);
  let directorySize = t.u32(eocd + 12);
  let directoryOffset = t.u32(eocd + 16);
  let directoryEnd = eocd;
  // torch (miniz) writes the zip64 end record and its locator in every file; others only when a
  // field is saturated. Where present, the directory ends at the zip64 record.
  const locator = eocd - 20;
  const hasLocator = locator >= tailStart && t.u32(locator) === ZIP64_LOCATOR;
  const saturated = count === 0xffff || directorySize === 0xffffffff || directoryOffset === 0xffffffff;
  if (saturated && !hasLocator) fail(eocd, "a zip64 archive without its zip64 locator");
  if (hasLocator) {
    const record = t.u64(locator + 8);
    if (record < tailStart || record + 56 > locator || t.u32(record) !== ZIP64_EOCD) {
      fail(locator + 8, "the zip64 end record is missing");
    }
    if (saturated) {
      count = t.u64(record + 32);
      directorySize = t.u64(record + 40);
      directoryOffset = t.u64(record + 48);
    }
    directoryEnd = record;
  }
  if (count > TENSOR_FILE_LIMITS.maxZipEntries) {
    fail(eocd + 10, `the archive claims ${count} entries, above the limit of ${TENSOR_FILE_LIMITS.maxZipEntries}`);
  }
  if (directoryOffset + directorySize > directoryEnd) {
    fail(eocd + 16, `the central directory (${directorySize} bytes at ${directoryOffset}) runs past its end record`);
  }
  if (directoryOffset + directorySize < directoryEnd) {
    fail(
      directoryOffset + directorySize,
      `${directoryEnd - directoryOffset - directorySize} bytes between the central directory and its end record belong to no record`,
    );
  }

  const directory = source.read(directoryOffset, directorySize);
  const d = reader(directory, directoryOffset, fail);
  const entries = new Map<string, ZipEntry>();
  let inflated = 0;
  let p = directoryOffset;
  for (let i = 0; i < count; i++) {
    if (d.u32(p) !== CENTRAL) fail(p, `central directory entry ${i} of ${count} is missing (the archive is damaged)`);
    const flags = d.u16(p + 8);
    const method = d.u16(p + 10);
    let compressedSize = d.u32(p + 20);
    let size = d.u32(p + 24);
    const nameLength = d.u16(p + 28);
    const extraLength = d.u16(p + 30);
    const commentLength = d.u16(p + 32);
    let headerOffset = d.u32(p + 42);
    const nameStart = p + 46;
    if (nameStart + nameLength + extraLength + commentLength > directoryOffset + directorySize)
      fail(p, "a central directory entry runs past the end of the directory");
    const entryName = decodeName(
      directory.subarray(nameStart - directoryOffset, nameStart - directoryOffset + nameLength),
      p,
      name,
    );
    // zip64 sizes and offset sit in extra field 0x0001, in this order, only for the fields set to all ones.
    const zip64 = findExtra(d.view, nameStart + nameLength - directoryOffset, extraLength, 0x0001);
    if (zip64 >= 0) {
      let q = zip64 + directoryOffset;
      if (size === 0xffffffff) {
        size = d.u64(q);
        q += 8;
      }
      if (compressedSize === 0xffffffff) {
        compressedSize = d.u64(q);
        q += 8;
      }
      if (headerOffset === 0xffffffff) headerOffset = d.u64(q);
    }
    if (entryName === "") fail(p, `central directory entry ${i} has an empty name`);
    const where = `record ${entryName}`;
    if (flags & 1) throw new TensorFileError(where, "the entry is encrypted", name);
    if (method !== 0 && method !== 8) {
      throw new TensorFileError(where, `compression method ${method} is not stored (0) or deflate (8)`, name);
    }
    if (method === 0 && compressedSize !== size) {
      throw new TensorFileError(
        where,
        `a stored entry with ${compressedSize} bytes in the file but ${size} bytes stated`,
        name,
      );
    }
    // Deflate cannot expand more than 1032:1, so a larger claim is a lie told to make us allocate.
    if (method === 8 && size > compressedSize * MAX_DEFLATE_RATIO + 1024) {
      throw new TensorFileError(
        where,
        `claims ${size} bytes from ${compressedSize} compressed, beyond deflate's ${MAX_DEFLATE_RATIO}:1 maximum`,
        name,
      );
    }
    // What every deflated record states, together: honest 1032:1 claims would still cost gigabytes.
    if (method === 8) {
      inflated += size;
      if (inflated > TENSOR_FILE_LIMITS.maxInflatedBytes) {
        throw new TensorFileError(
          where,
          `inflates to ${size} bytes, which brings the archive's deflated records to ${inflated}, above the limit of ${TENSOR_FILE_LIMITS.maxInflatedBytes} (a deflate bomb? re-save without compression)`,
          name,
        );
      }
    }
    if (entries.has(entryName)) throw new TensorFileError(where, "appears twice in the central directory", name);
    entries.set(entryName, { name: entryName, method, compressedSize, size, headerOffset });
    p = nameStart + nameLength + extraLength + commentLength;
  }
  if (p !== directoryOffset + directorySize) {
    fail(p, `${directoryOffset + directorySize - p} bytes at the end of the central directory belong to no entry`);
  }
  checkLayout([...entries.values()], directoryOffset, name);

  const dataOffsets = new Map<ZipEntry, number>();
  const dataOffset = (entry: ZipEntry): number => {
    const known = dataOffsets.get(entry);
    if (known !== undefined) return known;
    const where = `record ${entry.name}`;
    const local = entry.headerOffset;
    // Into one reused buffer where the source reads into one: a fresh 30-byte buffer per record (3,600 of them) cost more than the read.
    const header = source.readInto ? HEADER.subarray(0, source.readInto(local, HEADER)) : source.read(local, 30);
    const h = new DataView(header.buffer, header.byteOffset, header.byteLength);
    if (header.length < 30 || h.getUint32(0, true) !== LOCAL) {
      throw new TensorFileError(
        `${where}, byte ${local}`,
        "its local header is missing (the archive is damaged)",
        name,
      );
    }
    const start = local + 30 + h.getUint16(26, true) + h.getUint16(28, true);
    if (start + entry.compressedSize > directoryOffset) {
      throw new TensorFileError(
        `${where}, byte ${start}`,
        `its ${entry.compressedSize} bytes run into the central directory at byte ${directoryOffset}`,
        name,
      );
    }
    dataOffsets.set(entry, start);
    return start;
  };
  const read = (entry: ZipEntry): Uint8Array => {
    const raw = source.read(dataOffset(entry), entry.compressedSize);
    if (entry.method === 0) return raw;
    return boundedInflate(raw, entry.size, (detail) => {
      throw new TensorFileError(`record ${entry.name}`, detail, name);
    });
  };
  return { entries, read, dataOffset };
}

/**
 * Every byte before the central directory belongs to one entry: its local header (30 bytes, its
 * name and an extra field), its data, and perhaps a data descriptor. Entries may not overlap, and
 * a gap wider than the largest extra field and descriptor is data no entry accounts for. Checked
 * from the directory alone (no local header is read), so it costs nothing per entry.
 */
function checkLayout(entries: ZipEntry[], directoryOffset: number, source: string): void {
  const sorted = entries.slice().sort((a, b) => a.headerOffset - b.headerOffset);
  let end = 0;
  let previous: ZipEntry | null = null;
  for (const entry of sorted) {
    if (entry.headerOffset < end) {
      throw new TensorFileError(
        `record ${entry.name}`,
        `starts at byte ${entry.headerOffset}, inside record ${previous?.name} (which runs to byte ${end} at least): overlapping records`,
        source,
      );
    }
    const slack = previous === null ? 0 : MOST_SLACK;
    if (entry.headerOffset > end + slack) {
      throw new TensorFileError(
        at("", end),
        `${entry.headerOffset - end} bytes before record ${entry.name} belong to no record`,
        source,
      );
    }
    end = entry.headerOffset + 30 + new TextEncoder().encode(entry.name).length + entry.compressedSize;
    previous = entry;
  }
  if (end > directoryOffset) {
    throw new TensorFileError(
      `record ${previous?.name}`,
      `runs to byte ${end} at least, past the start of the central directory at byte ${directoryOffset}`,
      source,
    );
  }
  if (directoryOffset > end + (previous === null ? 0 : MOST_SLACK)) {
    throw new TensorFileError(
      at("", end),
      `${directoryOffset - end} bytes before the central directory belong to no record`,
      source,
    );
  }
}

/** The end record sits in the last 22 + 65535 bytes (its comment is at most 65535 bytes) and ends the file. */
function findEndRecord(tail: Uint8Array, view: DataView, base: number): number {
  const lowest = Math.max(0, tail.length - 22 - 0xffff);
  for (let p = tail.length - 22; p >= lowest; p--) {
    if (view.getUint32(p, true) === EOCD && p + 22 + view.getUint16(p + 20, true) === tail.length) return base + p;
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
