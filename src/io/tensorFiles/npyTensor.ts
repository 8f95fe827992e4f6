import { parseHeader } from "../npyImport";
import { decodeElements, heldAs, ITEM_SIZE, type StoredType } from "./elementTypes";
import { shapeClaim, TENSOR_FILE_LIMITS } from "./limits";
import { at, TensorFileError } from "./tensorFileError";
import type { Tensor } from "./tensorTypes";

/**
 * One `.npy` array of any shape as a Tensor: the header read by npyImport's strict parser (no
 * eval), then exactly the bytes the shape needs. The dtypes a batch is saved in, little-endian.
 */
const NPY_TYPES: Record<string, StoredType> = {
  "<f4": "float32",
  "<f8": "float64",
  "<f2": "float16",
  "<i4": "int32",
  "<i8": "int64",
  "<i2": "int16",
  "|i1": "int8",
  "|u1": "uint8",
  "|b1": "bool",
};

export function readNpyTensor(bytes: Uint8Array, record: string, source: string): Tensor {
  const fail = (byte: number | undefined, detail: string): never => {
    throw new TensorFileError(at(record, byte), detail, source);
  };
  const magic = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59];
  if (bytes.length < 10 || magic.some((b, i) => bytes[i] !== b)) fail(0, "not a .npy array (no \\x93NUMPY magic)");
  const major = bytes[6];
  if (![1, 2, 3].includes(major) || bytes[7] !== 0) fail(6, `.npy format version ${major}.${bytes[7]}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerStart = major === 1 ? 10 : 12;
  if (bytes.length < headerStart) fail(bytes.length, "the array ends inside its header length");
  const headerLength = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
  const dataStart = headerStart + headerLength;
  if (dataStart > bytes.length) fail(8, `the header length ${headerLength} runs past the end of the array`);
  const header = parseHeader(new TextDecoder().decode(bytes.subarray(headerStart, dataStart)));
  if (typeof header === "string") return fail(headerStart, `header ${header}`);
  const stored = NPY_TYPES[header.descr];
  if (stored === undefined) {
    return fail(
      headerStart,
      `dtype '${header.descr}' is not one of ${Object.keys(NPY_TYPES).join(", ")} (little-endian)`,
    );
  }
  if (header.fortranOrder) fail(headerStart, "a Fortran-ordered array; save np.ascontiguousarray(a)");
  if (header.shape.length > TENSOR_FILE_LIMITS.maxDims) fail(headerStart, `${header.shape.length} dimensions`);
  const count = header.shape.reduce((a, b) => a * b, 1);
  // A zero-size array is charged its other dimensions: [1e8, 0] is no data but 1e8 rows to whoever reads it.
  if (shapeClaim(header.shape) > TENSOR_FILE_LIMITS.maxElements) {
    fail(
      headerStart,
      `shape (${header.shape.join(", ")}) is above the limit of ${TENSOR_FILE_LIMITS.maxElements} elements`,
    );
  }
  const needed = count * ITEM_SIZE[stored];
  if (bytes.length - dataStart !== needed) {
    fail(
      dataStart,
      `shape (${header.shape.join(", ")}) of ${stored} needs ${needed} data bytes, the array has ${bytes.length - dataStart}`,
    );
  }
  return {
    kind: "tensor",
    storedDtype: stored,
    dtype: heldAs(stored),
    shape: header.shape,
    // An int64 beyond ±2^53 is NaN, refused by whoever reads the array (elementTypes: beyondSafeInteger).
    data: decodeElements(bytes.subarray(dataStart), stored, count),
    origin: `record ${record}`,
  };
}
