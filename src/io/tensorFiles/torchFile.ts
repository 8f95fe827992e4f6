import { ITEM_SIZE } from "./elementTypes";
import { runPickle } from "./pickleMachine";
import { at, TensorFileError } from "./tensorFileError";
import type { TensorFile } from "./tensorTypes";
import { checkStorageBytes, type StorageRef, torchPickleHooks } from "./torchPickle";
import { checkTree } from "./treeCheck";
import { readZip } from "./zipArchive";

/**
 * torch.save's zip format (torch ≥ 1.6, and every 2.x): `<prefix>/data.pkl` holds the object,
 * `<prefix>/data/<key>` the raw little-endian bytes of each storage. The pickle record is found
 * by its suffix (the prefix is the file stem for torch 1.x, `archive` for some 2.x writers) and
 * storages by their key, so record order and extra records (`version`, `byteorder`,
 * `.format_version`, `.storage_alignment`, `.data/serialization_id`) do not matter.
 */
export function readTorchZip(bytes: Uint8Array, source: string): TensorFile {
  const archive = readZip(bytes, source);
  const pickles = [...archive.entries.keys()].filter((name) => name === "data.pkl" || name.endsWith("/data.pkl"));
  if (pickles.length === 0) {
    throw new TensorFileError("", "is a zip archive without a data.pkl record: not a torch.save file", source);
  }
  if (pickles.length > 1) {
    throw new TensorFileError(
      "",
      `holds ${pickles.length} data.pkl records (${pickles.slice(0, 3).join(", ")}): not one torch.save file`,
      source,
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
        source,
      );
  }
  const pickleBytes = archive.read(
    archive.entries.get(pickleName) as NonNullable<ReturnType<typeof archive.entries.get>>,
  );
  const torch = torchPickleHooks(pickleName, source, false);
  const { value, end } = runPickle(pickleBytes, 0, torch.hooks, pickleName, source);
  if (end !== pickleBytes.length) {
    throw new TensorFileError(
      at(pickleName, end),
      `${pickleBytes.length - end} bytes follow the pickle's STOP`,
      source,
    );
  }
  const notes: string[] = [];
  torch.resolve((ref) => {
    const record = `${prefix}data/${ref.key}`;
    const entry = archive.entries.get(record);
    return {
      bytes: checkStorageBytes(entry && archive.read(entry), ref, record, source, pickleName),
      place: `record ${record}`,
    };
  }, notes);
  return { format: "torch-zip", root: checkTree(value, pickleName, source), notes };
}

const LEGACY_MAGIC = 0x1950a86a20f9469cfc6cn;
const LEGACY_PROTOCOL = 1001;

/** Whether the file starts like torch's legacy format: a protocol-2 pickle of its magic number (LONG1, 10 bytes). */
export function isLegacyTorch(bytes: Uint8Array): boolean {
  return bytes.length > 4 && bytes[0] === 0x80 && bytes[1] === 0x02 && bytes[2] === 0x8a && bytes[3] === 0x0a;
}

/**
 * The legacy format (`_use_new_zipfile_serialization=False`, torch < 1.6's default): five pickles
 * back to back (magic number, protocol version, sys_info, the object, the list of storage keys),
 * then each storage in that list's order as an int64 element count and its raw bytes.
 */
export function readTorchLegacy(bytes: Uint8Array, source: string): TensorFile {
  const none = { allowedGlobals: new Set<string>(), persistentLoad: refuse, reduce: refuse };
  const record = "";
  const magic = runPickle(bytes, 0, none, record, source);
  if (magic.value !== LEGACY_MAGIC)
    throw new TensorFileError(at(record, 0), "not a torch file: the legacy magic number is wrong", source);
  const protocol = runPickle(bytes, magic.end, none, record, source);
  if (protocol.value !== LEGACY_PROTOCOL) {
    throw new TensorFileError(
      at(record, magic.end),
      `legacy protocol version ${String(protocol.value)} (torch writes ${LEGACY_PROTOCOL})`,
      source,
    );
  }
  const sysInfo = runPickle(bytes, protocol.end, none, record, source);
  const info = sysInfo.value;
  if (!(info instanceof Map) || info.get("little_endian") !== true) {
    throw new TensorFileError(
      at(record, protocol.end),
      "the file was written on a big-endian machine, or its sys_info is missing",
      source,
    );
  }
  const torch = torchPickleHooks(record, source, true);
  const object = runPickle(bytes, sysInfo.end, torch.hooks, record, source);
  const keys = runPickle(bytes, object.end, none, record, source);
  if (!Array.isArray(keys.value) || !keys.value.every((k) => typeof k === "string")) {
    throw new TensorFileError(at(record, object.end), "the list of storage keys is not a list of strings", source);
  }
  // Storages follow in the keys' order: walk them once to find each one's bytes.
  const found = new Map<string, { bytes: Uint8Array; at: number }>();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let p = keys.end;
  for (const key of keys.value as string[]) {
    const ref = torch.storages.get(key);
    if (!ref) throw new TensorFileError(at(record, p), `storage key '${key}' is listed but no tensor uses it`, source);
    if (p + 8 > bytes.length) throw new TensorFileError(at(record, p), `the file ends before storage '${key}'`, source);
    const numel = view.getUint32(p, true) + view.getUint32(p + 4, true) * 2 ** 32;
    if (numel !== ref.numel) {
      throw new TensorFileError(
        at(record, p),
        `storage '${key}' holds ${numel} elements, its persistent id says ${ref.numel}`,
        source,
      );
    }
    const size = numel * ITEM_SIZE[ref.type];
    if (p + 8 + size > bytes.length) {
      throw new TensorFileError(
        at(record, p),
        `storage '${key}' needs ${size} bytes, the file has ${bytes.length - p - 8} left`,
        source,
      );
    }
    found.set(key, { bytes: bytes.subarray(p + 8, p + 8 + size), at: p + 8 });
    p += 8 + size;
  }
  const notes: string[] = [];
  torch.resolve((ref: StorageRef) => {
    // Every storage the object names was found above: its key is listed, or the walk refused the file.
    const storage = found.get(ref.key);
    if (!storage) {
      throw new TensorFileError(
        at(record, keys.end),
        `storage '${ref.key}' is used but not in the list of storage keys`,
        source,
      );
    }
    return { bytes: storage.bytes, place: `byte ${storage.at}` };
  }, notes);
  return { format: "torch-legacy", root: checkTree(object.value, "the object pickle", source), notes };
}

function refuse(): never {
  throw new Error("unreachable: no global is allowed in the legacy header pickles");
}
