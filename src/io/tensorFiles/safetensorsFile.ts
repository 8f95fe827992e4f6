import { decodeElements, heldAs, ITEM_SIZE, type StoredType } from "./elementTypes";
import { TENSOR_FILE_LIMITS } from "./limits";
import { at, TensorFileError } from "./tensorFileError";
import type { PyDict, TensorFile } from "./tensorTypes";

/**
 * `.safetensors`: an 8-byte little-endian header length, a JSON header
 * `{name: {dtype, shape, data_offsets: [begin, end]}, "__metadata__": {str: str}}`, then the raw
 * little-endian bytes, offsets counted from the end of the header. No code in the format at all;
 * the checks are that every tensor's bytes match its shape and lie inside the file.
 */
const SAFETENSORS_TYPES: Record<string, StoredType> = {
  F32: "float32",
  F64: "float64",
  F16: "float16",
  BF16: "bfloat16",
  I64: "int64",
  I32: "int32",
  I16: "int16",
  I8: "int8",
  U8: "uint8",
  BOOL: "bool",
};

/** Plausible safetensors: a header length that fits the file, then `{`. */
export function isSafetensors(bytes: Uint8Array): boolean {
  if (bytes.length < 10) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getUint32(0, true) + view.getUint32(4, true) * 2 ** 32;
  return length >= 2 && length <= bytes.length - 8 && bytes[8] === 0x7b;
}

export function readSafetensors(bytes: Uint8Array, source: string): TensorFile {
  const fail = (byte: number, detail: string): never => {
    throw new TensorFileError(at("", byte), detail, source);
  };
  if (bytes.length < 8) fail(0, "the file ends inside the safetensors header length");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getUint32(0, true) + view.getUint32(4, true) * 2 ** 32;
  if (length > TENSOR_FILE_LIMITS.maxHeaderBytes)
    fail(0, `a ${length}-byte header, above the limit of ${TENSOR_FILE_LIMITS.maxHeaderBytes}`);
  if (8 + length > bytes.length)
    fail(0, `the header length ${length} runs past the end of the file (${bytes.length} bytes)`);
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(8, 8 + length)));
  } catch (error) {
    return fail(8, `the header is not valid UTF-8 JSON (${(error as Error).message})`);
  }
  if (typeof header !== "object" || header === null || Array.isArray(header))
    return fail(8, "the header is not a JSON object");
  const dataStart = 8 + length;
  const root: PyDict = new Map();
  const notes: string[] = [];
  let elements = 0;
  for (const [name, spec] of Object.entries(header)) {
    const where = `header field ${JSON.stringify(name)}`;
    const refuse = (detail: string): never => {
      throw new TensorFileError(where, detail, source);
    };
    if (name === "__metadata__") {
      if (typeof spec !== "object" || spec === null || !Object.values(spec).every((v) => typeof v === "string")) {
        refuse("__metadata__ is not a map of strings");
      }
      root.set(name, new Map(Object.entries(spec as Record<string, string>)));
      continue;
    }
    const { dtype, shape, data_offsets: offsets } = (spec ?? {}) as Record<string, unknown>;
    const stored = typeof dtype === "string" ? SAFETENSORS_TYPES[dtype] : undefined;
    if (stored === undefined)
      return refuse(`dtype ${JSON.stringify(dtype)} is not one of ${Object.keys(SAFETENSORS_TYPES).join(", ")}`);
    if (!Array.isArray(shape) || shape.length > TENSOR_FILE_LIMITS.maxDims || !shape.every(isCount)) {
      return refuse(`shape ${JSON.stringify(shape)} is not a list of at most ${TENSOR_FILE_LIMITS.maxDims} counts`);
    }
    if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every(isCount) || offsets[0] > offsets[1]) {
      return refuse(`data_offsets ${JSON.stringify(offsets)} is not [begin, end]`);
    }
    const count = (shape as number[]).reduce((a, b) => a * b, 1);
    elements += count;
    if (count > TENSOR_FILE_LIMITS.maxElements || elements > TENSOR_FILE_LIMITS.maxElements) {
      return refuse(
        `shape (${shape.join(", ")}) brings the file above the limit of ${TENSOR_FILE_LIMITS.maxElements} elements`,
      );
    }
    const [begin, end] = offsets as number[];
    if (end - begin !== count * ITEM_SIZE[stored]) {
      return refuse(
        `data_offsets [${begin}, ${end}] hold ${end - begin} bytes, shape (${shape.join(", ")}) of ${stored} needs ${count * ITEM_SIZE[stored]}`,
      );
    }
    if (dataStart + end > bytes.length) {
      return refuse(
        `data_offsets [${begin}, ${end}] run past the end of the file (${bytes.length - dataStart} data bytes)`,
      );
    }
    if (stored === "bfloat16" || stored === "float16")
      notes.push(`${source}: ${stored} tensor ${name} widened to float32`);
    root.set(name, {
      kind: "tensor",
      storedDtype: stored,
      dtype: heldAs(stored),
      shape: shape as number[],
      data: decodeElements(bytes.subarray(dataStart + begin, dataStart + end), stored, count, where, source),
      origin: `tensor ${name}`,
    });
  }
  return { format: "safetensors", root, notes };
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}
