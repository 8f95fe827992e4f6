import type { FloatArray } from "../../core";
import { beyondSafeInteger } from "../tensorFiles/elementTypes";
import { smallArray } from "../tensorFiles/smallArrays";
import type { StorageView } from "../tensorFiles/storageView";
import { TensorFileError } from "../tensorFiles/tensorFileError";
import {
  isTensor,
  leadingElements,
  type PyDict,
  type PyValue,
  type Tensor,
  type TensorData,
} from "../tensorFiles/tensorTypes";

/**
 * Typed access to a dump's fields, every refusal naming the field's path (`samples[3].loss_masks`).
 */
export class FieldReader {
  constructor(
    readonly source: string,
    readonly path: string,
    readonly dict: PyDict,
  ) {}

  has(key: string): boolean {
    const value = this.dict.get(key);
    return value !== undefined && value !== null;
  }

  fail(key: string, detail: string): never {
    throw new TensorFileError(`field ${this.path}${key === "" ? "" : `.${key}`}`, detail, this.source);
  }

  number(key: string): number {
    const value = this.dict.get(key);
    if (typeof value === "number") return value;
    if (typeof value === "boolean") return value ? 1 : 0;
    if (isTensor(value) && value.shape.every((d) => d === 1)) return this.elements(key, value)[0];
    return this.fail(key, value === undefined ? "is missing" : `is ${kindOf(value)}, not a number`);
  }

  optionalNumber(key: string): number | null {
    return this.has(key) ? this.number(key) : null;
  }

  optionalString(key: string): string | null {
    const value = this.dict.get(key);
    return typeof value === "string" ? value : null;
  }

  /** A per-token field of R values: a 1-D tensor (or a list of numbers, as Sample dicts hold them). */
  tokens(key: string, R: number, narrow = false): FloatArray {
    const value = this.dict.get(key);
    let data: ArrayLike<number>;
    if (isTensor(value)) {
      if (value.shape.length !== 1) this.fail(key, `has shape (${value.shape.join(", ")}), expected [${R}]`);
      data = this.elements(key, value);
      if (narrow && data.length === R && data instanceof Int32Array && ownsItsBuffer(data) && exactInFloat32(data)) {
        // Narrowed where it lies, the tensor holding the float32 from then on: a copy was 17.7 MB of fresh pages at 4.4 M tokens.
        value.data = narrowInPlace(data);
        return value.data as Float32Array;
      }
    } else if (Array.isArray(value) && value.every((v) => typeof v === "number")) {
      data = value as number[];
    } else {
      return this.fail(key, value === undefined ? "is missing" : `is ${kindOf(value)}, not a tensor`);
    }
    return this.asTokens(key, R, data, narrow);
  }

  /**
   * A per-token field's elements as `tokens` gives them: R of them, float32 or float64. `narrow`:
   * integers float32 holds exactly (a loss mask's 0s and 1s) are held as float32, half the memory.
   */
  asTokens(key: string, R: number, data: ArrayLike<number>, narrow = false): FloatArray {
    if (data.length !== R)
      this.fail(key, `has ${data.length} tokens, the response has ${R} (a context-parallel slice?)`);
    // A float tensor's elements are used as read (float32 stays float32: half the memory, no copy);
    // anything else (int, bool, a list) is widened to float64, which holds it exactly.
    if (data instanceof Float32Array || data instanceof Float64Array) return data;
    // Small copies are cut from a slab (smallArrays.ts): a short sample's mask is a few tokens.
    const copy =
      narrow && ArrayBuffer.isView(data) && exactInFloat32(data)
        ? smallArray("float32", data.length)
        : smallArray("float64", data.length);
    copy.set(data);
    return copy;
  }

  /**
   * A tensor's elements, read once (a streamed tensor reads its storage each time `data` is asked
   * for), refused where an int64 a float64 would round is among them: only a field a reader uses is.
   */
  elements(key: string, tensor: Tensor): TensorData {
    return exactElements(tensor, (detail) => this.fail(key, detail));
  }

  /** A streamed tensor's elements read again and not held (streamedFields.ts), refused as `elements` refuses. */
  elementsAgain(key: string, tensor: StorageView): TensorData {
    return exactData(tensor.readAgain(), (detail) => this.fail(key, detail));
  }

  /** A tensor's first `count` elements, read alone where it is streamed, refused as `elements` is. */
  leading(key: string, tensor: Tensor, count: number): TensorData {
    return exactData(leadingElements(tensor, count), (detail) => this.fail(key, detail));
  }

  optionalTokens(key: string, R: number): FloatArray | undefined {
    return this.has(key) ? this.tokens(key, R) : undefined;
  }
}

/** An array over the whole of its buffer (a tensor's own read), not a view into bytes others read too. */
function ownsItsBuffer(data: Int32Array): boolean {
  return data.byteOffset === 0 && data.byteLength === data.buffer.byteLength;
}

/** The int32s as float32s in the same bytes (each element read before it is written); every one exact (exactInFloat32). */
function narrowInPlace(data: Int32Array): Float32Array {
  const out = new Float32Array(data.buffer, 0, data.length);
  for (let i = 0; i < data.length; i++) out[i] = data[i];
  return out;
}

/** Every element an integer float32 holds exactly (|x| ≤ 2^24). */
function exactInFloat32(data: ArrayLike<number>): boolean {
  for (let i = 0; i < data.length; i++) {
    const x = data[i];
    if (!(x >= -16777216 && x <= 16777216) || Math.floor(x) !== x) return false;
  }
  return true;
}

export function kindOf(value: PyValue | undefined): string {
  if (value === undefined) return "missing";
  if (value === null) return "None";
  if (isTensor(value)) return `a ${value.dtype} tensor of shape (${value.shape.join(", ")})`;
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (value instanceof Map) return "a dict";
  if (value instanceof Uint8Array) return "bytes";
  return `a ${typeof value}`;
}

/** A tensor's elements, read once; `fail` names the field where an int64 beyond ±2^53 is among them. */
export function exactElements(tensor: Tensor, fail: (detail: string) => never): TensorData {
  return exactData(tensor.data, fail);
}

function exactData(data: TensorData, fail: (detail: string) => never): TensorData {
  const inexact = beyondSafeInteger(data);
  if (inexact) fail(`int64 element ${inexact.element} is ${inexact.value}, beyond ±2^53 (a float64 would round it)`);
  return data;
}
