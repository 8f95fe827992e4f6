/**
 * The object tree a tensor file holds, as plain JavaScript: what the UI and the dump
 * interpreter walk. Python ints become numbers (or bigints past 2^53), floats numbers, str
 * strings, bytes Uint8Array, None null, lists and tuples arrays, dicts Maps (keys in the file's
 * order), tensors `Tensor`. Nothing in it is a function: no file can make this code call anything.
 */
export type PyKey = string | number | bigint | boolean | null;
export type PyValue = PyKey | Uint8Array | PyValue[] | PyDict | Tensor;
export type PyDict = Map<PyKey, PyValue>;

/** The dtypes a tensor can be read as. bf16 and float16 are widened to float32 on reading. */
export type TensorDtype = "float32" | "float64" | "int32" | "int64" | "bool" | "uint8" | "int8" | "int16";

/** The typed array each dtype is held in: int64 as float64 (checked exact), bool as 0/1 bytes. */
export type TensorData = Float32Array | Float64Array | Int32Array | Uint8Array | Int8Array | Int16Array;

export interface Tensor {
  kind: "tensor";
  /** The dtype as the file stored it (bf16 and float16 are reported here as read, data holds float32). */
  storedDtype: TensorDtype | "bfloat16" | "float16";
  dtype: TensorDtype;
  /** `[]` for a 0-d tensor. */
  shape: number[];
  /** The elements in C order, copied out of the storage (views resolved). */
  data: TensorData;
  /** Where it came from, for messages: `record train/data/3, elements 96…191`. */
  origin: string;
}

/**
 * A tensor's first `count` elements (C order). A streamed tensor whose elements are not read yet
 * (storageView.ts) reads only their bytes: a sample's prompt is a few hundred of its 32k tokens.
 */
export function leadingElements(tensor: Tensor, count: number): TensorData {
  const streamed = tensor as Tensor & { leadingElements?: (count: number) => TensorData };
  return typeof streamed.leadingElements === "function"
    ? streamed.leadingElements(count)
    : tensor.data.subarray(0, count);
}

export function isTensor(value: unknown): value is Tensor {
  return typeof value === "object" && value !== null && (value as Tensor).kind === "tensor";
}

export function isDict(value: unknown): value is PyDict {
  return value instanceof Map;
}

/** What readTensorFile returns: the tree, the format it was read as, and notes worth showing. */
export interface TensorFile {
  format: "torch-zip" | "torch-legacy" | "npz" | "safetensors";
  root: PyValue;
  /** e.g. "bfloat16 tensor at samples[0].log_probs widened to float32". */
  notes: string[];
}
