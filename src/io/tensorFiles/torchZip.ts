import { type ByteSource, type ChunkedReads, chunkedReads } from "./byteSource";
import { ITEM_SIZE } from "./elementTypes";
import { runPickle } from "./pickleMachine";
import { at, TensorFileError } from "./tensorFileError";
import type { TensorFile } from "./tensorTypes";
import { checkStorageSize, torchPickleHooks } from "./torchPickle";
import { checkTree } from "./treeCheck";
import { readZip, type ZipArchive } from "./zipArchive";

/**
 * torch.save's zip format (torch ≥ 1.6, and every 2.x): `<prefix>/data.pkl` holds the object,
 * `<prefix>/data/<key>` the raw little-endian bytes of each storage. The pickle record is found
 * by its suffix (the prefix is the file stem for torch 1.x, `archive` for some 2.x writers) and
 * storages by their key, so record order and extra records (`version`, `byteorder`,
 * `.format_version`, `.storage_alignment`, `.data/serialization_id`) do not matter.
 *
 * Read by random access: the directory and the pickle at once, every storage's size checked
 * against its record, and a tensor's bytes only when its `data` is asked for (torchPickle.ts).
 * The source must stay open while the tree's tensors are read.
 */
export function readTorchZip(source: ByteSource, archive: ZipArchive = readZip(source)): TensorFile {
  const name = source.name;
  const pickles = [...archive.entries.keys()].filter((entry) => entry === "data.pkl" || entry.endsWith("/data.pkl"));
  if (pickles.length === 0) {
    throw new TensorFileError("", "is a zip archive without a data.pkl record: not a torch.save file", name);
  }
  if (pickles.length > 1) {
    throw new TensorFileError(
      "",
      `holds ${pickles.length} data.pkl records (${pickles.slice(0, 3).join(", ")}): not one torch.save file`,
      name,
    );
  }
  const pickleName = pickles[0];
  const prefix = pickleName.slice(0, -"data.pkl".length);
  const byteorder = archive.entries.get(`${prefix}byteorder`);
  if (byteorder) {
    const order = new TextDecoder().decode(archive.read(byteorder)).trim();
    if (order !== "little")
      throw new TensorFileError(
        `record ${byteorder.name}`,
        `byte order ${JSON.stringify(order)}; only little-endian files are read`,
        name,
      );
  }
  const pickleBytes = archive.read(
    archive.entries.get(pickleName) as NonNullable<ReturnType<typeof archive.entries.get>>,
  );
  const torch = torchPickleHooks(pickleName, name, false);
  const { value, end } = runPickle(pickleBytes, 0, torch.hooks, pickleName, name);
  if (end !== pickleBytes.length) {
    throw new TensorFileError(at(pickleName, end), `${pickleBytes.length - end} bytes follow the pickle's STOP`, name);
  }
  const notes: string[] = [];
  torch.resolve((ref) => {
    const record = `${prefix}data/${ref.key}`;
    const entry = archive.entries.get(record);
    checkStorageSize(entry?.size, ref, record, name, pickleName);
    const found = entry as NonNullable<typeof entry>;
    const item = ITEM_SIZE[ref.type];
    if (found.method !== 0) {
      // A compressed storage (no torch writer makes one) is inflated whole when first read, once:
      // inflated again for each of its views, one 256 MiB storage read by 4 views cost a minute.
      let whole: Uint8Array | null = null;
      return {
        place: `record ${record}`,
        read: (first, count) => {
          whole ??= archive.read(found);
          return whole.subarray(first * item, (first + count) * item);
        },
      };
    }
    // The local header is read with the storage's first bytes: a storage nobody reads costs nothing.
    let start = -1;
    let reads: ChunkedReads | null = null;
    const opened = (): ChunkedReads => {
      if (reads === null) {
        start = archive.dataOffset(found);
        reads = chunkedReads(source, start + found.size);
      }
      return reads;
    };
    return {
      place: `record ${record}`,
      read: (first, count) => {
        const read = opened();
        return read(start + first * item, count * item);
      },
      elements: (first, count) => {
        const read = opened();
        return read.elements(start + first * item, count, ref.type);
      },
      fresh: source.readsAreFresh,
    };
  }, notes);
  return { format: "torch-zip", root: checkTree(value, pickleName, name, pickleBytes.length), notes };
}
