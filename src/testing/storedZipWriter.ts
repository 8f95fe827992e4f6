import { crc32 } from "node:zlib";

/**
 * Test and bench support: a zip of stored (uncompressed) records written front to back into a sink,
 * the way torch's PyTorchStreamWriter (miniz) writes a `torch.save` file: each local header with
 * flag 0x0808, CRC and sizes 0, and padding in an extra field `FB` (filled with `Z`) so the data
 * starts on a 64-byte boundary; each record's CRC-32 and sizes in a data descriptor after it and in
 * the central directory. ZIP64 fields appear where an offset or a size passes 2^32 − 1 (miniz's
 * rule: the local header's zip64 extra holds the sizes and the offset it needs, the descriptor
 * then has 8-byte sizes); the zip64 end record and its locator are always there, as in torch's
 * files, and the plain end record says 0xFFFF… only where a count, size or offset needs zip64.
 * Records stream through: only the directory (a few dozen bytes per record) is kept.
 */
export interface ByteSink {
  /** Takes the chunk (it is not reused after). A promise, when returned, is awaited: backpressure. */
  write(chunk: Uint8Array): void | Promise<void>;
}

export interface StoredZipOptions {
  /** Where record data starts (torch: 64). */
  alignment?: number;
  /**
   * Write every size and offset in zip64 form even when small (tests: the zip64 paths of a reader
   * without a 4 GiB file). Off: zip64 only where torch would need it.
   */
  forceZip64?: boolean;
}

interface DirectoryEntry {
  name: Uint8Array;
  offset: number;
  size: number;
  crc: number;
}

const MAX32 = 0xffffffff;
const MAX16 = 0xffff;
const FLAGS = 0x0808; // data descriptor follows, names are UTF-8
const ZIP64_VERSION = 45;

export class StoredZipWriter {
  private offset = 0;
  private readonly entries: DirectoryEntry[] = [];
  private readonly alignment: number;
  private readonly force: boolean;
  private finished = false;

  constructor(
    private readonly sink: ByteSink,
    options: StoredZipOptions = {},
  ) {
    this.alignment = options.alignment ?? 64;
    this.force = options.forceZip64 ?? false;
  }

  /** Bytes written so far. */
  get written(): number {
    return this.offset;
  }

  /**
   * One record of exactly `size` bytes, taken from `chunks` as they come (typed arrays are written
   * as their little-endian bytes); a chunk total other than `size` throws, naming the record.
   */
  async add(name: string, size: number, chunks: Iterable<ArrayBufferView>): Promise<void> {
    if (this.finished) throw new Error(`zip: record ${name} added after the directory`);
    const nameBytes = new TextEncoder().encode(name);
    if (nameBytes.length > MAX16) throw new Error(`zip: record name ${name} is too long`);
    const headerOffset = this.offset;
    const bigSize = this.force || size >= MAX32;
    const bigOffset = this.force || headerOffset >= MAX32;

    const zip64: number[] = [];
    if (bigSize) zip64.push(size, size);
    if (bigOffset) zip64.push(headerOffset);
    const zip64Length = zip64.length > 0 ? 4 + 8 * zip64.length : 0;
    const start = headerOffset + 30 + nameBytes.length + zip64Length + 4;
    const padding = (this.alignment - (start % this.alignment)) % this.alignment;
    const extraLength = zip64Length + 4 + padding;

    const header = new Uint8Array(30 + nameBytes.length + extraLength);
    const view = new DataView(header.buffer);
    view.setUint32(0, 0x04034b50, true);
    view.setUint16(4, 0, true); // version needed: miniz writes 0 for stored records
    view.setUint16(6, FLAGS, true);
    // method 0, time and date 0, CRC and sizes 0: they follow in the data descriptor.
    view.setUint16(26, nameBytes.length, true);
    view.setUint16(28, extraLength, true);
    header.set(nameBytes, 30);
    let p = 30 + nameBytes.length;
    if (zip64Length > 0) {
      view.setUint16(p, 0x0001, true);
      view.setUint16(p + 2, zip64Length - 4, true);
      for (const [i, v] of zip64.entries()) setU64(view, p + 4 + 8 * i, v);
      p += zip64Length;
    }
    header[p] = 0x46; // 'F'
    header[p + 1] = 0x42; // 'B'
    view.setUint16(p + 2, padding, true);
    header.fill(0x5a, p + 4); // 'Z'
    await this.emit(header);

    let crc = 0;
    let count = 0;
    for (const chunk of chunks) {
      const bytes = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      count += bytes.length;
      if (count > size) throw new Error(`zip: record ${name} has more than its ${size} bytes`);
      crc = crc32(bytes, crc);
      await this.emit(bytes);
    }
    if (count !== size) throw new Error(`zip: record ${name} has ${count} bytes, not ${size}`);

    const descriptor = new Uint8Array(zip64Length > 0 ? 24 : 16);
    const d = new DataView(descriptor.buffer);
    d.setUint32(0, 0x08074b50, true);
    d.setUint32(4, crc >>> 0, true);
    if (zip64Length > 0) {
      setU64(d, 8, size);
      setU64(d, 16, size);
    } else {
      d.setUint32(8, size, true);
      d.setUint32(12, size, true);
    }
    await this.emit(descriptor);
    this.entries.push({ name: nameBytes, offset: headerOffset, size, crc: crc >>> 0 });
  }

  /** The central directory and end records; the sink then holds a complete zip. */
  async finish(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    const directoryOffset = this.offset;
    for (const e of this.entries) await this.emit(directoryEntry(e, this.force));
    const directorySize = this.offset - directoryOffset;
    const count = this.entries.length;
    // miniz as torch sets it up writes the zip64 end record and locator always, small files too.
    const record = this.offset;
    const end64 = new Uint8Array(56 + 20);
    const w = new DataView(end64.buffer);
    w.setUint32(0, 0x06064b50, true);
    setU64(w, 4, 44);
    w.setUint16(12, 0x031e, true); // made by: unix, 3.0
    w.setUint16(14, ZIP64_VERSION, true);
    setU64(w, 24, count);
    setU64(w, 32, count);
    setU64(w, 40, directorySize);
    setU64(w, 48, directoryOffset);
    w.setUint32(56, 0x07064b50, true);
    setU64(w, 64, record);
    w.setUint32(72, 1, true);
    await this.emit(end64);
    const end = new Uint8Array(22);
    const v = new DataView(end.buffer);
    v.setUint32(0, 0x06054b50, true);
    const c = this.force ? MAX16 : Math.min(count, MAX16);
    v.setUint16(8, c, true);
    v.setUint16(10, c, true);
    v.setUint32(12, this.force ? MAX32 : Math.min(directorySize, MAX32), true);
    v.setUint32(16, this.force ? MAX32 : Math.min(directoryOffset, MAX32), true);
    await this.emit(end);
  }

  private async emit(bytes: Uint8Array) {
    this.offset += bytes.length;
    await this.sink.write(bytes);
  }
}

function directoryEntry(e: DirectoryEntry, force: boolean): Uint8Array {
  const bigSize = force || e.size >= MAX32;
  const bigOffset = force || e.offset >= MAX32;
  const zip64: number[] = [];
  if (bigSize) zip64.push(e.size, e.size);
  if (bigOffset) zip64.push(e.offset);
  const extraLength = zip64.length > 0 ? 4 + 8 * zip64.length : 0;
  const out = new Uint8Array(46 + e.name.length + extraLength);
  const v = new DataView(out.buffer);
  v.setUint32(0, 0x02014b50, true);
  const version = zip64.length > 0 ? ZIP64_VERSION : 0;
  v.setUint16(4, version, true);
  v.setUint16(6, version, true);
  v.setUint16(8, FLAGS, true);
  v.setUint32(16, e.crc, true);
  v.setUint32(20, bigSize ? MAX32 : e.size, true);
  v.setUint32(24, bigSize ? MAX32 : e.size, true);
  v.setUint16(28, e.name.length, true);
  v.setUint16(30, extraLength, true);
  v.setUint32(42, bigOffset ? MAX32 : e.offset, true);
  out.set(e.name, 46);
  if (extraLength > 0) {
    const p = 46 + e.name.length;
    v.setUint16(p, 0x0001, true);
    v.setUint16(p + 2, extraLength - 4, true);
    for (const [i, x] of zip64.entries()) setU64(v, p + 4 + 8 * i, x);
  }
  return out;
}

function setU64(view: DataView, at: number, value: number) {
  view.setUint32(at, value % 2 ** 32, true);
  view.setUint32(at + 4, Math.floor(value / 2 ** 32), true);
}

/** A sink that keeps what it is given (tests: a small file in memory). */
export class MemorySink implements ByteSink {
  private readonly chunks: Uint8Array[] = [];
  write(chunk: Uint8Array) {
    this.chunks.push(chunk.slice());
  }
  bytes(): Uint8Array {
    const total = this.chunks.reduce((n, c) => n + c.length, 0);
    const out = new Uint8Array(total);
    let at = 0;
    for (const c of this.chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }
}
