import { ITEM_SIZE, type StoredType } from "./elementTypes";
import { shapeClaim, TENSOR_FILE_LIMITS } from "./limits";
import type { PickleHooks } from "./pickleMachine";
import { isGlobal, isPersistent, isTuple, type Persistent, type StackValue, typeName } from "./pickleValues";
import { type StorageBytes, StorageView } from "./storageView";
import { at, TensorFileError } from "./tensorFileError";
import type { Tensor } from "./tensorTypes";

/**
 * What torch.save's pickle may name, and how its tensors are rebuilt without running torch: a
 * persistent id names a storage (dtype, key, element count); `_rebuild_tensor_v2` makes a view of
 * it (offset, size, stride); the view's elements are copied out once every storage is at hand.
 */
export const STORAGE_TYPES: Record<string, StoredType> = {
  "torch.FloatStorage": "float32",
  "torch.DoubleStorage": "float64",
  "torch.HalfStorage": "float16",
  "torch.BFloat16Storage": "bfloat16",
  "torch.LongStorage": "int64",
  "torch.IntStorage": "int32",
  "torch.ShortStorage": "int16",
  "torch.CharStorage": "int8",
  "torch.ByteStorage": "uint8",
  "torch.BoolStorage": "bool",
};

const REBUILD_TENSOR = "torch._utils._rebuild_tensor_v2";
const REBUILD_PARAMETER = "torch._utils._rebuild_parameter";
const ORDERED_DICT = "collections.OrderedDict";

/** Every global a tensor dump needs (torch 1.x and 2.x write the same names); anything else is refused. */
export const TORCH_GLOBALS: ReadonlySet<string> = new Set([
  REBUILD_TENSOR,
  REBUILD_PARAMETER,
  ORDERED_DICT,
  ...Object.keys(STORAGE_TYPES),
]);

export interface StorageRef {
  key: string;
  type: StoredType;
  numel: number;
  /** Byte of the BINPERSID, for messages. */
  byte: number;
}

export type { StorageBytes } from "./storageView";

/**
 * The hooks for one pickle, and `resolve`, which fills every tensor from its storage's bytes
 * once the container has found them (`storageBytes(ref)` throws a located error when it cannot).
 */
export function torchPickleHooks(record: string, source: string, legacy: boolean) {
  // The views in pickle order, each with its storage.
  const pending: StorageView[] = [];
  const pendingRefs: StorageRef[] = [];
  // One shared 1-D size or stride per value: the file's own tuples are then dropped with the memo
  // (150,000 samples of eight tensors: 2.4 M tuples of one count, some 160 MB of the tree).
  const oneDims = new Map<number, readonly number[]>();
  const storages = new Map<string, StorageRef>();
  // One persistent id value per storage: each tensor's is used once, by its REDUCE.
  const persistents = new Map<StorageRef, Persistent>();
  // The view allowance, charged as each view is made (resolve's order: a storage's elements count
  // from its first view on), so a file past it stops there, not once its whole pickle has run.
  const viewedStorages = new Set<StorageRef>();
  let stored = 0;
  let viewed = 0;
  const fail = (byte: number, detail: string): never => {
    throw new TensorFileError(at(record, byte), detail, source);
  };

  const hooks: PickleHooks = {
    allowedGlobals: TORCH_GLOBALS,
    persistentLoad(pid, byte) {
      const length = legacy ? 6 : 5;
      if (!isTuple(pid) || pid.length !== length || pid[0] !== "storage") {
        return fail(
          byte,
          `a persistent id that is not torch's ('storage', class, key, location, numel${legacy ? ", None" : ""})`,
        );
      }
      const [, cls, key, location, numel] = pid;
      const type = isGlobal(cls) ? STORAGE_TYPES[cls.name] : undefined;
      if (type === undefined) return fail(byte, `a persistent id whose storage class is ${shown(cls)}`);
      if (typeof key !== "string" || typeof location !== "string")
        return fail(byte, "a persistent id without a string key and location");
      if (!isCount(numel)) return fail(byte, `storage '${key}' claims ${String(numel)} elements`);
      if (legacy && pid[5] !== null)
        return fail(byte, `storage '${key}' is a legacy storage view, which is not supported`);
      const known = storages.get(key);
      if (known && (known.type !== type || known.numel !== numel)) {
        return fail(byte, `storage '${key}' is named twice with different types or sizes`);
      }
      const ref = known ?? { key, type, numel, byte };
      storages.set(key, ref);
      let persistent = persistents.get(ref);
      if (persistent === undefined) {
        persistent = { kind: "persistent", value: ref };
        persistents.set(ref, persistent);
      }
      return persistent;
    },
    reduce(callable, args, byte, path) {
      if (callable.name === ORDERED_DICT) {
        if (args.length !== 0) return fail(byte, "collections.OrderedDict with arguments (torch passes none)");
        return new Map();
      }
      if (callable.name === REBUILD_PARAMETER) {
        if (args.length !== 3 || !isTensorValue(args[0]))
          return fail(byte, `${REBUILD_PARAMETER} without (tensor, requires_grad, hooks)`);
        checkHooks(args[2], byte);
        return args[0];
      }
      if (callable.name === REBUILD_TENSOR) return rebuildTensor(args, byte, path);
      return fail(byte, `REDUCE of ${callable.name}: a storage class is only a persistent id's type, never called`);
    },
  };

  function checkHooks(value: StackValue, byte: number) {
    if (!(value instanceof Map) || value.size !== 0)
      fail(byte, "a tensor with backward hooks (functions cannot be read from a file)");
  }

  function rebuildTensor(args: StackValue[], byte: number, path: () => string | null): Tensor {
    if (args.length !== 6 && args.length !== 7) {
      return fail(
        byte,
        `${REBUILD_TENSOR} with ${args.length} arguments (expected storage, offset, size, stride, requires_grad, hooks[, metadata])`,
      );
    }
    const [storage, offset, size, stride, requiresGrad, backwardHooks] = args;
    if (!isPersistent(storage)) return fail(byte, `${REBUILD_TENSOR} of a ${typeName(storage)}, not a storage`);
    const ref = storage.value as StorageRef;
    if (!isCount(offset)) return fail(byte, `tensor of storage '${ref.key}' has storage offset ${String(offset)}`);
    const shape = dims(size, "size", ref, byte);
    const strides = dims(stride, "stride", ref, byte);
    if (strides.length !== shape.length) {
      return fail(byte, `tensor of storage '${ref.key}' has ${shape.length} sizes but ${strides.length} strides`);
    }
    if (typeof requiresGrad !== "boolean")
      return fail(byte, `tensor of storage '${ref.key}' has requires_grad ${shown(requiresGrad)}`);
    checkHooks(backwardHooks, byte);
    let count = 1;
    let last = offset;
    for (let d = 0; d < shape.length; d++) {
      count *= shape[d];
      last += (shape[d] - 1) * strides[d];
      if (count > TENSOR_FILE_LIMITS.maxElements) {
        return fail(
          byte,
          `tensor of storage '${ref.key}' has ${shape.join("×")} elements, above the limit of ${TENSOR_FILE_LIMITS.maxElements}`,
        );
      }
    }
    if (count === 0 && shapeClaim(shape) > TENSOR_FILE_LIMITS.maxElements) {
      return fail(
        byte,
        `tensor of storage '${ref.key}' has shape (${shape.join(", ")}): no elements, but a dimension product above the limit of ${TENSOR_FILE_LIMITS.maxElements}`,
      );
    }
    if (count > 0 && last >= ref.numel) {
      return fail(
        byte,
        `tensor of shape (${shape.join(", ")}), stride (${strides.join(", ")}) at offset ${offset} reaches element ${last} of storage '${ref.key}', which has ${ref.numel}`,
      );
    }
    if (!viewedStorages.has(ref)) {
      viewedStorages.add(ref);
      stored += ref.numel;
    }
    viewed += shapeClaim(shape);
    if (viewed > TENSOR_FILE_LIMITS.viewsPerElement * stored + TENSOR_FILE_LIMITS.viewAllowance) {
      const field = path();
      throw new TensorFileError(
        field === null ? at(record, byte) : `field ${field}`,
        `a view of storage '${ref.key}' of shape (${shape.join(", ")}), stride (${strides.join(", ")}) brings the elements the file's tensors claim to ${viewed}, more than ${TENSOR_FILE_LIMITS.viewsPerElement} views of the ${stored} its storages hold plus the allowance of ${TENSOR_FILE_LIMITS.viewAllowance} (views that repeat elements: stride 0 or overlapping; zero-size tensors with huge dimensions)`,
        source,
      );
    }
    const tensor = new StorageView(ref.type, shape, ref.key, offset, strides);
    pending.push(tensor);
    pendingRefs.push(ref);
    return tensor;
  }

  function dims(value: StackValue, what: string, ref: StorageRef, byte: number): number[] {
    if (!isTuple(value) || value.length > TENSOR_FILE_LIMITS.maxDims || !value.every(isCount)) {
      return fail(
        byte,
        `tensor of storage '${ref.key}' has ${what} ${shown(value)}, not a tuple of at most ${TENSOR_FILE_LIMITS.maxDims} counts`,
      );
    }
    if (value.length !== 1) return value as number[];
    const n = value[0] as number;
    let shared = oneDims.get(n);
    if (shared === undefined) {
      shared = Object.freeze([n]);
      oneDims.set(n, shared);
    }
    return shared as number[];
  }

  /**
   * Gives every tensor its elements, read from its storage the first time `data` is asked for:
   * fields nobody reads (an unused int64, a model's entropy) are never read, and a file read by
   * random access is never held whole, only the tensors read, until the tree is dropped. Every
   * claim is checked before anything is read: each storage's bytes exist, here (`storageBytes`
   * throws a located error when not), and the views together claim at most twice the storages'
   * own elements (viewsPerElement: slime's advantages and returns share one) plus a small
   * allowance (a zero-size view is charged its other dimensions), as each view is made
   * (rebuildTensor), so stride-0, overlapping or `[1e8, 0]` views cannot make a small file cost
   * gigabytes, nor run the rest of its pickle: the refusal names the field (`samples[3].tokens`)
   * where the pickle's stack says it for certain, else the byte.
   */
  function resolve(storageBytes: (ref: StorageRef) => StorageBytes, notes: string[]): void {
    const found = new Map<string, StorageBytes>();
    for (let v = 0; v < pending.length; v++) {
      const view = pending[v];
      const ref = pendingRefs[v];
      let bytes = found.get(ref.key);
      if (!bytes) {
        bytes = storageBytes(ref);
        found.set(ref.key, bytes);
        if (ref.type === "bfloat16" || ref.type === "float16")
          notes.push(`${source}: ${ref.type} storage '${ref.key}' widened to float32`);
      }
      view.attach(bytes);
    }
  }

  return { hooks, storages, resolve };
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function isTensorValue(value: unknown): value is Tensor {
  return typeof value === "object" && value !== null && (value as Tensor).kind === "tensor";
}

function shown(value: unknown): string {
  if (isGlobal(value)) return value.name;
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return `a ${typeName(value)}`;
}

/** A storage's record size, checked against its element count before anything is read. */
export function checkStorageSize(
  size: number | undefined,
  ref: StorageRef,
  record: string,
  source: string,
  pickleRecord: string,
): void {
  if (size === undefined) {
    throw new TensorFileError(
      `record ${record}`,
      `is missing: storage '${ref.key}' (${at(pickleRecord, ref.byte)}) has no data`,
      source,
    );
  }
  const needed = ref.numel * ITEM_SIZE[ref.type];
  if (size !== needed) {
    throw new TensorFileError(
      `record ${record}`,
      `holds ${size} bytes, but storage '${ref.key}' claims ${ref.numel} ${ref.type} elements (${needed} bytes)`,
      source,
    );
  }
}
