import {
  allocate,
  beyondSafeInteger,
  decodeElements,
  heldAs,
  markBeyondSafeInteger,
  type StoredType,
} from "./elementTypes";
import type { Tensor, TensorData, TensorDtype } from "./tensorTypes";

/** Where a view's elements are read from: raw little-endian bytes of `count` elements from element `first`. */
export interface StorageBytes {
  read(first: number, count: number): Uint8Array;
  /** Each read is a new array no one else holds (ByteSource.readsAreFresh): its elements are used in place. */
  fresh?: boolean;
  /**
   * `count` elements from element `first`, decoded into an array of their own, where the storage
   * can do that without an array of bytes in between (chunkedReads' elements): a dump of 150,000
   * samples reads 1.2 M views of a few elements.
   */
  elements?(first: number, count: number): TensorData;
  /** For messages: `record archive/data/3` or `byte 1024`. */
  place: string;
}

/**
 * A tensor of a torch file: a view (offset, shape, strides) of a storage whose elements are read
 * the first time `data` is asked for, then held with the tree. Fields nobody reads (an unused
 * int64, a model's entropy) are never read, and a file read by random access is never held whole.
 *
 * One small object per tensor, its accessors on the prototype: a dump of 150,000 samples holds
 * 600,000 tensors, and a closure set, a redefined property and a WeakMap entry per tensor cost
 * four times the heap of the tensors themselves.
 */
export class StorageView implements Tensor {
  readonly kind = "tensor" as const;
  readonly dtype: TensorDtype;
  /** Null until `attach`, once every claim of the file is checked; a swapped value from then on. */
  private bytes: StorageBytes | null = null;
  private held: TensorData | null = null;

  constructor(
    readonly storedDtype: StoredType,
    readonly shape: number[],
    private readonly key: string,
    private readonly offset: number,
    readonly strides: number[],
  ) {
    this.dtype = heldAs(storedDtype);
  }

  /** Where it came from, for messages. */
  get origin(): string {
    return this.bytes === null ? `storage '${this.key}'` : `storage '${this.key}', offset ${this.offset}`;
  }

  /** The storage's bytes, found and checked: `data` reads from them from now on. */
  attach(bytes: StorageBytes): void {
    this.bytes = bytes;
  }

  /** The elements in C order: read on first use, then held with the tree (which the reader that asked drops when done). */
  get data(): TensorData {
    if (this.held === null) this.held = this.bytes === null ? allocate(this.dtype, 0) : this.load(this.bytes);
    return this.held;
  }

  /** A test or tool that swaps a tensor's elements gets its value from then on. */
  set data(value: TensorData) {
    this.held = value;
  }

  /**
   * The elements read again from the storage and not held (those held where `data` was read): a
   * streamed sample's field (slimeDump/streamedFields.ts) is read on each pass, then dropped.
   */
  readAgain(): TensorData {
    if (this.held !== null) return this.held;
    return this.bytes === null ? allocate(this.dtype, 0) : this.load(this.bytes);
  }

  /** The first `first` elements: read alone where they are not held yet (a sample's prompt is a few hundred of its 32k tokens). */
  leadingElements(first: number): TensorData {
    const bytes = this.bytes;
    if (this.held !== null || bytes === null || !this.contiguous() || first >= this.count())
      return this.data.subarray(0, first);
    return contiguousElements(bytes, this.offset, first, this.storedDtype);
  }

  private count(): number {
    let count = 1;
    for (const d of this.shape) count *= d;
    return count;
  }

  private contiguous(): boolean {
    const { shape, strides } = this;
    let size = 1;
    for (let d = shape.length - 1; d >= 0; d--) {
      if (strides[d] !== size && shape[d] !== 1) return false;
      size *= shape[d];
    }
    return true;
  }

  private load(bytes: StorageBytes): TensorData {
    const { shape, strides, offset, storedDtype } = this;
    const count = this.count();
    if (this.contiguous()) return contiguousElements(bytes, offset, count, storedDtype);
    // Strides are counts (never negative), so a view spans its offset to its last element.
    let span = count === 0 ? 0 : 1;
    if (count > 0) for (let d = 0; d < shape.length; d++) span += (shape[d] - 1) * strides[d];
    const elements = decodeElements(bytes.read(offset, span), storedDtype, span, bytes.fresh);
    const out = gatherView(elements, shape, strides, count);
    // An int64 a float64 cannot hold is NaN in the view too: named by its index in the view.
    if (beyondSafeInteger(elements)) {
      const element = out.findIndex((x) => Number.isNaN(x));
      if (element >= 0)
        markBeyondSafeInteger(out, element, viewValue(bytes.read(offset, span), shape, strides, element));
    }
    return out;
  }
}

function contiguousElements(bytes: StorageBytes, first: number, count: number, stored: StoredType): TensorData {
  return bytes.elements
    ? bytes.elements(first, count)
    : decodeElements(bytes.read(first, count), stored, count, bytes.fresh);
}

/** The int64 at a view's C-ordered `element`, read again from the raw bytes of its span. */
function viewValue(raw: Uint8Array, shape: number[], stride: number[], element: number): bigint {
  let at = 0;
  let rest = element;
  for (let d = shape.length - 1; d >= 0; d--) {
    at += (rest % shape[d]) * stride[d];
    rest = Math.floor(rest / shape[d]);
  }
  return new DataView(raw.buffer, raw.byteOffset, raw.byteLength).getBigInt64(8 * at, true);
}

/** The C-ordered elements of a strided view whose first element is `elements[0]`. */
function gatherView<T extends TensorData>(elements: T, shape: number[], stride: number[], count: number): T {
  const out = allocate(elementsDtype(elements), count) as T;
  const index = new Array(shape.length).fill(0);
  for (let i = 0; i < count; i++) {
    let at = 0;
    for (let d = 0; d < shape.length; d++) at += index[d] * stride[d];
    out[i] = elements[at];
    for (let d = shape.length - 1; d >= 0; d--) {
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
  return out;
}

function elementsDtype(elements: TensorData) {
  if (elements instanceof Float32Array) return "float32" as const;
  if (elements instanceof Float64Array) return "float64" as const;
  if (elements instanceof Int32Array) return "int32" as const;
  if (elements instanceof Int16Array) return "int16" as const;
  if (elements instanceof Int8Array) return "int8" as const;
  return "uint8" as const;
}
