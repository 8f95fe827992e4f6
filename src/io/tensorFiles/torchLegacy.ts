import { ITEM_SIZE } from "./elementTypes";
import { runPickle } from "./pickleMachine";
import { at, TensorFileError } from "./tensorFileError";
import type { TensorFile } from "./tensorTypes";
import { type StorageRef, torchPickleHooks } from "./torchPickle";
import { checkTree } from "./treeCheck";

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
  const record = "";
  // The header pickles and the key list are plain data: a persistent id or a call there is refused by its byte.
  const headerOnly =
    (what: string) =>
    (byte: number): never => {
      throw new TensorFileError(
        at(record, byte),
        `${what} in the legacy header (magic number, protocol version, sys_info or storage keys): only the object pickle names storages`,
        source,
      );
    };
  const none = {
    allowedGlobals: new Set<string>(),
    persistentLoad: (_pid: unknown, byte: number) => headerOnly("a persistent id")(byte),
    reduce: (_callable: unknown, _args: unknown, byte: number) => headerOnly("a REDUCE")(byte),
  };
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
    if (found.has(key)) {
      throw new TensorFileError(
        at(record, p),
        `storage '${key}' is listed twice in the list of storage keys (its second copy would hide the first)`,
        source,
      );
    }
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
  if (p !== bytes.length) {
    throw new TensorFileError(
      at(record, p),
      `${bytes.length - p} bytes follow the last storage, which no key in the list indexes`,
      source,
    );
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
    const item = ITEM_SIZE[ref.type];
    return {
      place: `byte ${storage.at}`,
      read: (first: number, count: number) => storage.bytes.subarray(first * item, (first + count) * item),
    };
  }, notes);
  return {
    format: "torch-legacy",
    root: checkTree(object.value, "the object pickle", source, object.end - sysInfo.end),
    notes,
  };
}
