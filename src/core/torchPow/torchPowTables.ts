import { glibcPowf } from "./glibcPowf";
import { sleefPowf } from "./sleefPowf";
import { isScalarElement, scalarRanges, type TorchCpu } from "./torchCpuLayout";

/** An entry of slime's kernel M that is not `kernelRow[col - row]`. */
export interface KernelPatch {
  row: number;
  col: number;
  value: number;
}

export interface TorchPowTables {
  /** M[0][k] = d^k, k < C: the first C elements of the masked triangle. */
  kernelRow: Float32Array;
  /** pow_vec[k] = d^(k+1): `discount ** torch.arange(1, C + 1, dtype=float32)`. */
  carryPowers: Float32Array;
  /** Entries of M whose element went through the other loop than kernelRow's d^(col−row) did. */
  kernelPatches: KernelPatch[];
}

/**
 * The float32 power tables torch builds in slime's `chunked_discounted_returns` for a discount
 * that is not 0 (ALGORITHM.md §b.1 step 4), element for element as torch's CPU kernel computes
 * them: `fl32(discount)` raised by SLEEF's vectorised powf or by glibc's scalar powf, as the
 * call's layout decides (torchCpuLayout.ts).
 *
 * `M[mask] = discount ** diff[mask]` is one call over the C(C+1)/2 elements of the upper triangle,
 * row-major, so its scalar tails sit at the end of the flattened triangle (the last rows, small
 * exponents) and, with several threads, at the end of each thread's slice. Where such an entry
 * differs from the vectorised d^(j−i) of row 0, M is not Toeplitz there: it comes back as a patch.
 */
export function torchPowTables(discount: number, chunkSize: number, cpu: TorchCpu): TorchPowTables {
  const base = Math.fround(discount);
  const C = chunkSize;
  // pow_Scalar_out: a base equal to 1 fills the output with ones without calling pow. Each loop's
  // value is a function of the exponent alone: both tables share one memo per loop.
  const vector = memoised((k) => sleefPowf(base, k), C + 1);
  const scalarLoop = memoised((k) => glibcPowf(base, k), C + 1);
  const pow = (scalar: boolean, k: number) => (base === 1 ? 1 : scalar ? scalarLoop(k) : vector(k));

  const carryPowers = new Float32Array(C);
  const carryScalar = markRanges(C, scalarRanges(C, cpu));
  for (let k = 0; k < C; k++) carryPowers[k] = pow(carryScalar[k] === 1, k + 1);

  const triangle = (C * (C + 1)) / 2;
  const triangleScalar = scalarRanges(triangle, cpu);
  // Row 0 of the triangle is its first C elements, exponents 0 … C−1.
  const kernelRow = new Float32Array(C);
  const rowScalar = markRanges(C, triangleScalar);
  for (let k = 0; k < C; k++) kernelRow[k] = pow(rowScalar[k] === 1, k);

  const kernelPatches: KernelPatch[] = [];
  const vectorValue = (e: number) => (rowScalar[e] === 1 ? pow(false, e) : kernelRow[e]);
  const scalarValue = (e: number) => (rowScalar[e] === 1 ? kernelRow[e] : pow(true, e));
  // A call that is scalar throughout (the DEFAULT capability, or fewer than 16 elements) is one
  // function of the exponent: Toeplitz. Otherwise only elements whose loop differs from their
  // row-0 twin's can differ from it; the scalar ones are the few tails.
  const allScalar = triangleScalar.length === 1 && triangleScalar[0][0] === 0 && triangleScalar[0][1] === triangle;
  if (allScalar) return { kernelRow, carryPowers, kernelPatches };
  for (const [start, end] of triangleScalar) {
    for (let flat = start; flat < end; flat++) {
      if (flat < C) continue;
      const { row, col } = triangleEntry(flat, C);
      const value = Math.fround(scalarValue(col - row));
      if (!Object.is(value, kernelRow[col - row])) kernelPatches.push({ row, col, value });
    }
  }
  // Row-0 elements that were scalar (only with a thread slice shorter than a row) make every
  // later vectorised twin a potential patch.
  const scalarRowExponents = [...rowScalar.keys()].filter((e) => rowScalar[e] === 1);
  if (scalarRowExponents.length > 0) {
    for (const e of scalarRowExponents) {
      const v = Math.fround(vectorValue(e));
      if (Object.is(v, kernelRow[e])) continue;
      for (let row = 1; row + e < C; row++) {
        const flat = rowStart(row, C) + e;
        if (!inRanges(flat, triangleScalar)) kernelPatches.push({ row, col: row + e, value: v });
      }
    }
  }
  kernelPatches.sort((a, b) => a.row - b.row || a.col - b.col);
  return { kernelRow, carryPowers, kernelPatches };
}

/**
 * `pow_vec[C − 1] = d^C` alone, as torchPowTables computes it: the carry across a whole chunk,
 * for a control that shows it without building the tables (C can be 2^20).
 */
export function torchCarryPower(discount: number, chunkSize: number, cpu: TorchCpu): number {
  const base = Math.fround(discount);
  if (base === 1) return 1;
  return isScalarElement(chunkSize - 1, chunkSize, cpu) ? glibcPowf(base, chunkSize) : sleefPowf(base, chunkSize);
}

/** Index of M[row][row] in the row-major flattened upper triangle of a C×C matrix. */
function rowStart(row: number, C: number): number {
  return row * C - (row * (row - 1)) / 2;
}

/** (row, col) of element `flat` of the flattened upper triangle. */
export function triangleEntry(flat: number, C: number): { row: number; col: number } {
  // Solve rowStart(row) ≤ flat < rowStart(row + 1); the float estimate is corrected exactly.
  let row = Math.floor((2 * C + 1 - Math.sqrt((2 * C + 1) ** 2 - 8 * flat)) / 2);
  while (row > 0 && rowStart(row, C) > flat) row--;
  while (row + 1 < C && rowStart(row + 1, C) <= flat) row++;
  return { row, col: row + flat - rowStart(row, C) };
}

/** f over the integers 0 … n−1, each value computed once. */
function memoised(f: (k: number) => number, n: number): (k: number) => number {
  const values = new Float32Array(n);
  const known = new Uint8Array(n);
  return (k) => {
    if (k >= n) return f(k);
    if (!known[k]) {
      values[k] = f(k);
      known[k] = 1;
    }
    return values[k];
  };
}

function markRanges(n: number, ranges: Array<[number, number]>): Uint8Array {
  const marks = new Uint8Array(n);
  for (const [s, e] of ranges) marks.fill(1, Math.min(s, n), Math.min(e, n));
  return marks;
}

function inRanges(i: number, ranges: Array<[number, number]>): boolean {
  return ranges.some(([s, e]) => i >= s && i < e);
}
