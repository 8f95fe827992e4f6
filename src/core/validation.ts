import type { Batch, FloatArray } from "./batch";
import type { PowTables } from "./discountPowers";

/**
 * Bad input to the scan: the message names what is wrong and where (row, token, field).
 * `referenceType` is the exception the reference raises for the same input, where it raises
 * one, so a case's `expect_error` ("AssertionError: …") can be matched exactly.
 */
export class ScanInputError extends Error {
  readonly referenceType: string;

  constructor(message: string, referenceType = "ValueError") {
    super(message);
    this.name = "ScanInputError";
    this.referenceType = referenceType;
  }

  /** The error as Python prints it: `AssertionError: Sequence at index 1 is fully masked.` */
  get referenceText(): string {
    return `${this.referenceType}: ${this.message}`;
  }
}

export function checkDiscount(discount: number, name = "discount"): void {
  if (typeof discount !== "number" || !Number.isFinite(discount)) {
    throw new ScanInputError(`${name} must be a finite number, got ${String(discount)}`);
  }
}

/**
 * Largest chunk size accepted: a chunk of C tokens means a C×C kernel in the reference (4 TB at
 * this size), and C values per chunk in the trace. slime's default is 128.
 */
export const MAX_CHUNK_SIZE = 2 ** 20;

export function checkChunkSize(chunkSize: number): void {
  // slime computes `T % chunk_size` first, so 0 fails there, with Python's own words.
  if (chunkSize === 0) throw new ScanInputError("integer modulo by zero", "ZeroDivisionError");
  if (!Number.isInteger(chunkSize) || chunkSize < 1) {
    throw new ScanInputError(`chunk_size must be a positive integer, got ${String(chunkSize)}`);
  }
  if (chunkSize > MAX_CHUNK_SIZE) {
    throw new ScanInputError(`chunk_size ${chunkSize} is above the largest supported, ${MAX_CHUNK_SIZE}`);
  }
}

export function checkBatchShape(x: Batch, name: string): void {
  const { rows, cols } = x;
  if (!Number.isInteger(rows) || rows < 0 || !Number.isInteger(cols) || cols < 0) {
    throw new ScanInputError(`${name} must have a shape of two non-negative integers, got [${rows}, ${cols}]`);
  }
  if (x.data.length !== rows * cols) {
    throw new ScanInputError(
      `${name} has ${x.data.length} values but its shape [${rows}, ${cols}] needs ${rows * cols}`,
    );
  }
}

/**
 * Set only inside `allowingNonFinite`: a caller that shows what NaN does (the playground's lesson,
 * ALGORITHM.md §b.4) opts in per call. Everything else, the CLI and conformance included, stays strict.
 */
let nonFiniteAllowed = false;

/** Runs `solve` (synchronous) with NaN and ±Inf let through the input checks; shapes are still checked. */
export function allowingNonFinite<T>(solve: () => T): T {
  const before = nonFiniteAllowed;
  nonFiniteAllowed = true;
  try {
    return solve();
  } finally {
    nonFiniteAllowed = before;
  }
}

/** Rejects NaN and ±Inf, naming the first one: they poison a whole chunk of the GEMM (§b.4). */
export function checkFiniteBatch(x: Batch, name: string): void {
  checkBatchShape(x, name);
  if (nonFiniteAllowed) return;
  const i = firstNonFinite(x.data);
  if (i >= 0) {
    const row = Math.floor(i / x.cols);
    throw new ScanInputError(`${name} has a non-finite value at row ${row}, token ${i - row * x.cols}: ${x.data[i]}`);
  }
}

export function checkFiniteRow(values: ArrayLike<number>, name: string, row: number): void {
  if (nonFiniteAllowed) return;
  const i = firstNonFinite(values);
  if (i >= 0) {
    throw new ScanInputError(`${name} has a non-finite value at row ${row}, token ${i}: ${values[i]}`);
  }
}

function firstNonFinite(values: ArrayLike<number>): number {
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i])) return i;
  return -1;
}

export function checkSameShape(a: Batch, aName: string, b: Batch, bName: string): void {
  if (a.rows !== b.rows || a.cols !== b.cols) {
    throw new ScanInputError(
      `${bName} has shape [${b.rows}, ${b.cols}] but ${aName} has shape [${a.rows}, ${a.cols}]; they must match`,
    );
  }
}

export function checkPowTables(tables: PowTables<FloatArray>, chunkSize: number): void {
  for (const [name, table] of [
    ["M_row0", tables.kernelRow],
    ["pow_vec", tables.carryPowers],
  ] as const) {
    if (table.length !== chunkSize) {
      throw new ScanInputError(`power table ${name} has ${table.length} entries but chunk_size is ${chunkSize}`);
    }
  }
  for (const { row, col, value } of tables.kernelPatches ?? []) {
    if (!Number.isInteger(row) || !Number.isInteger(col) || row < 0 || col < row || col >= chunkSize) {
      throw new ScanInputError(
        `kernel patch M[${row}][${col}] is not in the upper triangle of a ${chunkSize}×${chunkSize} kernel`,
      );
    }
    if (typeof value !== "number") throw new ScanInputError(`kernel patch M[${row}][${col}] has no number`);
  }
}
