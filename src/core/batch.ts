/**
 * A batch of rows stored row-major in one typed array: element (b, t) at `data[b * cols + t]`.
 *
 * The array type is the precision, as a tensor's dtype is in torch: a Float32Array is computed
 * with float32 rounding after every operation, a Float64Array in plain float64, and every
 * function returns the same array type it was given.
 */
export type FloatArray = Float32Array | Float64Array;

export interface Batch<A extends FloatArray = FloatArray> {
  rows: number;
  cols: number;
  data: A;
}

export type Precision = "float32" | "float64";

export function precisionOf(data: FloatArray): Precision {
  return data instanceof Float32Array ? "float32" : "float64";
}

/** The rounding applied after each arithmetic operation in the given precision. */
export function roundingOf(data: FloatArray): (x: number) => number {
  return data instanceof Float32Array ? Math.fround : identity;
}

function identity(x: number): number {
  return x;
}

/**
 * Where a scan's output tables come from: a zero-filled array of `like`'s type and `length`. A
 * caller may lend arrays it zeroed ahead (a worker that touched their pages while idle); every
 * array it gives must be zero-filled and of `like`'s type, as zerosLike's are.
 */
export type Zeros = <A extends FloatArray>(like: A, length: number) => A;

/** A zero-filled array of the same type (precision) as `like`. */
export function zerosLike<A extends FloatArray>(like: A, length: number): A {
  return (like instanceof Float32Array ? new Float32Array(length) : new Float64Array(length)) as A;
}

/**
 * Arrays lent again and again to a caller that scans row after row and is done with each result
 * before the next scan (the bit-for-bit comparison of a dump's returns): `zeros` lends zero-filled
 * arrays, as zerosLike does, cut out of buffers kept from scan to scan, where eight fresh rows a
 * sample faulted fresh pages in and left the collector their garbage. A scan asks for its arrays in
 * the same order each time, so the n-th array asked for since `rewind` is always cut from the n-th
 * buffer; each holds until that buffer is lent again.
 */
export class ScanScratch {
  private readonly buffers: FloatArray[] = [];
  private next = 0;

  /** The next scan takes the buffers from the first again: what the last one was lent is given up. */
  rewind(): void {
    this.next = 0;
  }

  readonly zeros: Zeros = <A extends FloatArray>(like: A, length: number): A => {
    const slot = this.next++;
    const buffer = this.buffers[slot];
    if (
      buffer === undefined ||
      buffer.length < length ||
      buffer instanceof Float32Array !== like instanceof Float32Array
    ) {
      const fresh = zerosLike(like, length);
      this.buffers[slot] = fresh;
      return fresh;
    }
    return buffer.subarray(0, length).fill(0) as A;
  };
}

/** `values` in float64: a Float64Array as it is, anything else widened (exactly) into a new one. */
export function float64Of(values: ArrayLike<number>): Float64Array {
  if (values instanceof Float64Array) return values;
  const out = new Float64Array(values.length);
  out.set(values);
  return out;
}

export function arrayOf(precision: Precision, values: ArrayLike<number> | number): FloatArray {
  if (typeof values === "number") {
    return precision === "float32" ? new Float32Array(values) : new Float64Array(values);
  }
  return precision === "float32" ? Float32Array.from(values) : Float64Array.from(values);
}

export function batch<A extends FloatArray>(data: A, rows: number, cols: number): Batch<A> {
  return { rows, cols, data };
}

/** Row `b` as a view (no copy). */
export function rowOf<A extends FloatArray>(x: Batch<A>, b: number): A {
  return x.data.subarray(b * x.cols, (b + 1) * x.cols) as A;
}
