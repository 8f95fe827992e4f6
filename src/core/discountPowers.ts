import { arrayOf, type FloatArray, type Precision } from "./batch";

/**
 * The two power tables of slime's chunked scan, for chunk size C:
 * - `kernelRow[k] = d^k` (k < C) is row 0 of the upper-triangular Toeplitz kernel M,
 *   `M[i][j] = kernelRow[j - i]` for j ≥ i, else 0;
 * - `carryPowers[k] = d^(k+1)` scales the carry entering a chunk at its position k.
 *
 * Field names follow the golden files (`float32_pow_tables.M_row0`, `pow_vec`).
 */
export interface PowTables<A extends FloatArray = FloatArray> {
  kernelRow: A;
  carryPowers: A;
}

/**
 * The tables as slime builds them: `discount ** k` evaluated in the working precision, so in
 * float32 the base is fl32(d). torch's float32 pow is not always correctly rounded (1 ulp off
 * for a few k at d = 0.99), which is why a bit-exact replay takes the tables from the case file.
 * `discount === 0` takes slime's identity branch: M = I and no carry.
 */
export function discountPowers(discount: number, chunkSize: number, precision: Precision): PowTables {
  if (discount === 0) {
    const kernelRow = arrayOf(precision, chunkSize);
    kernelRow[0] = 1;
    return { kernelRow, carryPowers: arrayOf(precision, chunkSize) };
  }
  return powersOf(precision === "float32" ? Math.fround(discount) : discount, chunkSize, precision);
}

/**
 * The tables for a base given exactly (a float64 number): each power taken in float64, then
 * rounded once to the precision. The two-level engine uses it for `fl32(d)^C`, which is not a
 * float32 number and must not be rounded before its powers are taken.
 */
export function powersOf(base: number, chunkSize: number, precision: Precision): PowTables {
  const kernelRow = arrayOf(precision, chunkSize);
  const carryPowers = arrayOf(precision, chunkSize);
  for (let k = 0; k < chunkSize; k++) {
    kernelRow[k] = base ** k;
    carryPowers[k] = base ** (k + 1);
  }
  return { kernelRow, carryPowers };
}
