import { closeSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { type ByteSink, MemorySink, type StoredZipOptions, StoredZipWriter } from "./storedZipWriter";
import {
  type PickleValue,
  STORAGE_CLASSES,
  type TorchPickle,
  type TorchPickleOptions,
  type TorchStorage,
  writeTorchPickle,
} from "./torchPickleWriter";

/**
 * Test and bench support: a `torch.save` zip written front to back into a sink, so a 1.5 GB dump
 * never sits in memory: the pickle first (metadata only), then each storage's bytes as its record
 * is reached. Two layouts, record for record what each torch writes (DUMPS.md §3 and §6):
 * - `torch-1.13`: `<stem>/data.pkl`, `<stem>/data/<key>` in lexicographic key order, `<stem>/version`;
 * - `torch-2`: `<stem>/data.pkl`, `.format_version`, `.storage_alignment`, `byteorder`, the storages
 *   in numeric key order, `version`, `.data/serialization_id` (all under `<stem>/`).
 * In `torch-2` the storages are asked for in the order they first appear in the value tree, which
 * lets a generator produce them sample by sample; `torch-1.13` asks in the order `0, 1, 10, 100, …`.
 */
export type TorchLayout = "torch-1.13" | "torch-2";

export interface TorchSaveOptions extends StoredZipOptions, TorchPickleOptions {
  /** The record prefix: torch uses the file's stem (`5` for `train_data/5.pt`). */
  stem: string;
  layout?: TorchLayout;
}

export async function writeTorchSave(sink: ByteSink, root: PickleValue, options: TorchSaveOptions): Promise<number> {
  return writeTorchZip(sink, writeTorchPickle(root, options), options);
}

/** The records of a pickle already written (or a hand-written program, with no storages); returns the size. */
export async function writeTorchZip(
  sink: ByteSink,
  { bytes: pickle, storages }: TorchPickle,
  options: TorchSaveOptions,
): Promise<number> {
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) throw new Error("torch zip: a big-endian host");
  const layout = options.layout ?? "torch-2";
  const zip = new StoredZipWriter(sink, options);
  const prefix = `${options.stem}/`;
  const text = (s: string) => [new TextEncoder().encode(s)];
  const record = (name: string, chunks: Uint8Array[]) =>
    zip.add(
      prefix + name,
      chunks.reduce((n, c) => n + c.length, 0),
      chunks,
    );

  await record("data.pkl", [pickle]);
  if (layout === "torch-2") {
    await record(".format_version", text("1"));
    await record(".storage_alignment", text(String(options.alignment ?? 64)));
    await record("byteorder", text("little"));
  }
  const keys = storages.map((_, i) => String(i));
  if (layout === "torch-1.13") keys.sort();
  for (const key of keys) {
    const storage = storages[Number(key)];
    await zip.add(`${prefix}data/${key}`, storageBytes(storage), storage.chunks());
  }
  await record("version", text("3\n"));
  if (layout === "torch-2") await record(".data/serialization_id", text(serializationId(options.stem, storages)));
  await zip.finish();
  return zip.written;
}

function storageBytes(s: TorchStorage): number {
  return s.numel * STORAGE_CLASSES[s.dtype].itemSize;
}

/**
 * torch writes 40 digits (a hash of the record names and one of their CRCs); loading never reads
 * them. Here: 40 digits from the stem and the storage sizes, so a file's id is reproducible.
 */
function serializationId(stem: string, storages: TorchStorage[]): string {
  let h = 1469598103934665603n;
  const mix = (x: bigint) => {
    h = ((h ^ x) * 1099511628211n) % 10n ** 20n;
  };
  for (const c of new TextEncoder().encode(stem)) mix(BigInt(c));
  for (const s of storages) mix(BigInt(storageBytes(s)));
  return h.toString().padStart(20, "0") + BigInt(storages.length).toString().padStart(20, "0");
}

/**
 * A sink writing to a file through one descriptor (positioned at the end, synchronous), into
 * `path.partial` first and renamed on close, so an interrupted run leaves no file that looks whole.
 */
export class FileSink implements ByteSink {
  private readonly fd: number;
  constructor(private readonly path: string) {
    this.fd = openSync(`${path}.partial`, "w");
  }
  write(chunk: Uint8Array) {
    let done = 0;
    while (done < chunk.length) done += writeSync(this.fd, chunk, done);
  }
  close() {
    closeSync(this.fd);
    renameSync(`${this.path}.partial`, this.path);
  }
  /** Leaves no `.partial` file behind on failure. */
  abandon() {
    closeSync(this.fd);
    unlinkSync(`${this.path}.partial`);
  }
}

/**
 * `root` saved as torch.save would, in memory (small test files); a Uint8Array is taken as the
 * pickle itself, a hand-written program naming no storages.
 */
export async function torchSaveBytes(root: PickleValue | Uint8Array, options: TorchSaveOptions): Promise<Uint8Array> {
  const sink = new MemorySink();
  const pickle = root instanceof Uint8Array ? { bytes: root, storages: [] } : writeTorchPickle(root, options);
  await writeTorchZip(sink, pickle, options);
  return sink.bytes();
}

/** A storage whose bytes are already in memory (small tests, shared storages). */
export function storageOf(dtype: TorchStorage["dtype"], data: ArrayBufferView & { length: number }): TorchStorage {
  return { dtype, numel: data.length, chunks: () => [data] };
}
